// The exporter as users run it (dist/cli.js, a process of its own, a fleet configuration file) against a
// real local network: one target per node, each watching every node's ID (so every node is a vantage of
// every validator) and expected active, every collector on, on a short base interval.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { COLLECTORS } from '../../src/collectors/index.js';
import { parseExposition, value, type ParsedExposition } from '../helpers/exposition-parser.js';
import { ensureBuilt, freePort, startCli, waitFor, type Proc } from '../helpers/proc.js';
import type { RealNetwork } from './network.js';

export interface RealnetExporterOptions {
  /** Base collection interval and every collector's interval, seconds (default 5). */
  readonly intervalSeconds?: number;
  /** Deadline of each request to a node (default 4s). */
  readonly nodeTimeout?: string;
}

export interface RealnetExporter {
  readonly url: string;
  /** host:port, for a Prometheus scrape config. */
  readonly address: string;
  readonly intervalSeconds: number;
  readonly proc: Proc;
  scrape(): Promise<ParsedExposition>;
  /** The exporter's JSON log lines so far. */
  logLines(): Record<string, unknown>[];
  stop(): Promise<number | null>;
}

/** The configuration file a person would write for this network. */
export function realnetConfig(network: RealNetwork, port: number, o: Required<RealnetExporterOptions>): string {
  const ids = network.nodes.map((n) => n.nodeId);
  const every = `${o.intervalSeconds}s`;
  return [
    `web: { listenAddress: "127.0.0.1:${port}" }`,
    `collection: { interval: ${every}, timeout: ${every} }`,
    `node: { timeout: ${o.nodeTimeout} }`,
    'log: { level: info }',
    'collectors:',
    ...COLLECTORS.map((c) => `  ${c.name}: { enabled: true, interval: ${every} }`),
    'targets:',
    ...network.nodes.map((n) => `  - { name: ${n.name}, url: "${n.url}", expectActive: true, validatorNodeIds: [${ids.join(', ')}] }`),
    '',
  ].join('\n');
}

export async function startRealnetExporter(network: RealNetwork, opts: RealnetExporterOptions = {}): Promise<RealnetExporter> {
  ensureBuilt();
  const o = { intervalSeconds: opts.intervalSeconds ?? 5, nodeTimeout: opts.nodeTimeout ?? '4s' };
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'avax-realnet-exporter-'));
  const file = join(dir, 'config.yaml');
  writeFileSync(file, realnetConfig(network, port, o));
  const proc = startCli(['--config.file', file]);
  const url = `http://127.0.0.1:${port}`;
  const scrape = async () => parseExposition(await (await fetch(`${url}/metrics`, { signal: AbortSignal.timeout(10_000) })).text());
  try {
    await waitFor(async () => value(await scrape(), 'avax_exporter_build_info') !== undefined || undefined, 30_000, 200);
  } catch (e) {
    await proc.stop();
    throw new Error(`the exporter did not serve /metrics: ${String(e)}\n${proc.stdout().slice(-3000)}\n${proc.stderr().slice(-3000)}`);
  }
  return {
    url,
    address: `127.0.0.1:${port}`,
    intervalSeconds: o.intervalSeconds,
    proc,
    scrape,
    logLines: () =>
      proc
        .stdout()
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as Record<string, unknown>),
    async stop() {
      const code = await proc.stop();
      rmSync(dir, { recursive: true, force: true });
      return code;
    },
  };
}
