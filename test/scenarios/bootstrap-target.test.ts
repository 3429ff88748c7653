// Issue 27 item 6, bootstrap progress end to end: two simulated nodes of the same network, one of them
// bootstrapping (no height of its own: /ext/bc/* answers 503), the other healthy; the exporter gives the
// bootstrapping one the height to reach (avax_chain_bootstrap_target_height) from the other, and nothing once
// it has bootstrapped. Cycles are driven by collectOnce (bounded; every collector every cycle).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COLLECTORS } from '../../src/collectors/index.js';
import { loadConfig } from '../../src/config/load.js';
import { startExporter, type Exporter } from '../../src/main.js';
import { startSimNode, type SimNode } from '@avalanche-exporter/simulated-node';
import { memoryLogger } from '../helpers/log.js';
import { metric } from '../helpers/proc.js';

const HEALTH_INTERVAL_MS = 50;
const MAX_CYCLES = 6;
let a: SimNode;
let b: SimNode;
let exporter: Exporter;

async function cyclesUntil(done: (text: string) => boolean): Promise<string> {
  let text = '';
  for (let i = 0; i < MAX_CYCLES; i++) {
    await exporter.collectOnce();
    text = exporter.current().text.toString('utf8');
    if (done(text)) return text;
  }
  return text;
}

beforeAll(async () => {
  a = await startSimNode({ seed: 27, validators: 40, peers: 40, healthIntervalMs: HEALTH_INTERVAL_MS });
  b = await startSimNode({ seed: 28, validators: 40, peers: 40, healthIntervalMs: HEALTH_INTERVAL_MS });
  await a.setScenario('bootstrapping');
  const yaml = `collection: { interval: 2s, timeout: 2s }
node: { timeout: 1s }
collectors: {${COLLECTORS.map((c) => ` ${c.name}: { interval: 2s }`).join(',')} }
targets:
  - { name: a, url: "${a.url}" }
  - { name: b, url: "${b.url}" }
`;
  const { config } = loadConfig({ argv: ['--config.file', 'bootstrap.yaml'], env: {}, readFile: () => yaml });
  exporter = await startExporter({ config, logger: memoryLogger('silent').logger, listen: false, schedule: false });
  await new Promise((r) => setTimeout(r, HEALTH_INTERVAL_MS + 30));
});

afterAll(async () => {
  await exporter?.stop();
  await a?.close();
  await b?.close();
});

describe('bootstrap target height', () => {
  it('default: the bootstrapping node gets the other node\'s height of each chain it bootstraps', async () => {
    const text = await cyclesUntil((t) => metric(t, 'avax_chain_bootstrap_target_height', { target: 'a', chain: 'C' }) !== undefined);
    for (const chain of ['P', 'C', 'X']) {
      expect(metric(text, 'avax_chain_bootstrapped', { target: 'a', chain })).toBe(0);
      expect(metric(text, 'avax_chain_height', { target: 'a', chain })).toBeUndefined();
      expect(metric(text, 'avax_chain_bootstrap_target_height', { target: 'a', chain })).toBe(metric(text, 'avax_chain_height', { target: 'b', chain }));
    }
    // The node that has every chain bootstrapped has no target.
    expect(text).not.toContain('avax_chain_bootstrap_target_height{target="b"');
  });
  it('behavior: once the node has bootstrapped, the series is gone', async () => {
    await a.setScenario('healthy');
    await new Promise((r) => setTimeout(r, HEALTH_INTERVAL_MS + 30));
    const text = await cyclesUntil((t) => !t.includes('avax_chain_bootstrap_target_height{'));
    expect(text).not.toContain('avax_chain_bootstrap_target_height{');
    expect(metric(text, 'avax_chain_bootstrapped', { target: 'a', chain: 'C' })).toBe(1);
  });
});
