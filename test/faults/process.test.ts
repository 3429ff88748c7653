import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COLLECTORS } from '../../src/collectors/index.js';
import { find, parseExposition } from '../helpers/exposition-parser.js';
import { COLLECTOR_NAMES, startMatrixNode } from '../helpers/fault-matrix.js';
import type { FaultNode } from '../helpers/fault-node.js';
import { FAULTS, type FaultName } from '../helpers/fault-table.js';
import { promtoolCheck } from '../helpers/promtool.js';
import { ensureBuilt, freePort, startCli, waitFor, type Proc } from '../helpers/proc.js';

/**
 * The real process (dist/cli.js, node-cron schedule) against a node that stalls, sends bodies
 * above the cap, then refuses connections: it stays up and serving a valid
 * /metrics, and every collector comes back on its own.
 */
describe('fault matrix: the exporter process survives node-wide faults', () => {
  let node: FaultNode;
  let proc: Proc;
  let base = '';

  const successes = async () => {
    const r = await fetch(`${base}/metrics`, { signal: AbortSignal.timeout(3_000) });
    expect(r.status).toBe(200);
    const text = await r.text();
    const p = parseExposition(text);
    return { text, values: find(p, 'avax_collector_success').map((s) => s.value) };
  };
  const all = (v: number) => async () => {
    const s = await successes();
    return s.values.length === COLLECTOR_NAMES.length && s.values.every((x) => x === v) ? s : undefined;
  };

  beforeAll(async () => {
    ensureBuilt();
    node = await startMatrixNode();
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    proc = startCli([
      '--node.url', node.url, '--node.name', 'fault', '--web.listen-address', `127.0.0.1:${port}`,
      '--collection.interval', '1s', '--collection.timeout', '1s', '--node.timeout', '300ms', '--node.max-response-size', '64KiB',
      ...COLLECTOR_NAMES.flatMap((c) => [`--collector.${c}.interval`, '1s']),
      // Every collector, the opt-in ones too (as in the fault matrix).
      ...COLLECTORS.filter((c) => !c.enabled).map((c) => `--collector.${c.name}`),
    ]);
    await waitFor(all(1), 15_000);
  });
  afterAll(async () => {
    await proc?.stop('SIGKILL');
    await node?.close();
  });

  it.each<FaultName>(['stall', 'tooLargeChunked', 'refused'])('%s on every route: alive, valid /metrics, then recovered', async (fault) => {
    const f = FAULTS[fault];
    if (f.nodeWide) await node.stop();
    else node.setFault(() => true, f.handler!);
    try {
      const during = await waitFor(all(0), 10_000);
      expect(promtoolCheck(during.text)).toMatch(/ok|skipped/);
      expect(proc.child.exitCode).toBeNull();
    } finally {
      node.clearFault();
      await node.start();
    }
    await waitFor(all(1), 10_000);
    expect(proc.child.exitCode).toBeNull();
  });

  it('exits 0 on SIGTERM with nothing on stderr and only JSON log lines', async () => {
    expect(await proc.stop('SIGTERM')).toBe(0);
    expect(proc.stderr()).toBe('');
    for (const line of proc.stdout().split('\n').filter(Boolean)) expect(() => JSON.parse(line)).not.toThrow();
  });
});
