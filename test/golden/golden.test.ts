import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startExporter, type Exporter } from '../../src/main.js';
import { loadConfig } from '../../src/config/load.js';
import { cb58Id, startFixtureNode, type FixtureNode } from '../helpers/fixture-node.js';
import { memoryLogger } from '../helpers/log.js';
import { result } from '../fixtures/load.js';

export const GOLDEN = resolve(import.meta.dirname, 'metrics.txt');
/** Fixed clock of the golden run. */
export const GOLDEN_NOW = Date.parse('2026-05-14T09:22:00Z'); // just after the fixtures' timestamps
export const L1_SUBNET = cb58Id('golden-l1');

/** Wall-time values differ run to run; they are replaced by a placeholder. */
export function normalize(text: string): string {
  return text
    .split('\n')
    .map((l) => (/^(avax_collector_duration_seconds|avax_rpc_request_duration_seconds_(bucket|sum))\{/.test(l) ? l.replace(/ [^ ]+$/, ' <wall-time>') : l))
    .join('\n');
}

const hasPromtool = spawnSync('promtool', ['--version']).status === 0;

describe('golden /metrics', () => {
  let node: FixtureNode;
  let refNode: FixtureNode;
  let exporter: Exporter;
  let text = '';

  beforeAll(async () => {
    node = await startFixtureNode();
    // Two open ACPs on the watched node (v1.14.2 has none; the shape is AVALANCHEGO.md's).
    node.override.set('info.acps', () => ({ status: 200, body: JSON.stringify({ jsonrpc: '2.0', result: result('info.acps', 'open'), id: '__ID__' }) }));
    // Two targets: the node, and a reference node (node-specific calls skipped) that has the watched node
    // among its peers, so that the cross-target series (blocks behind, the node's own ACP vote) exist too.
    refNode = await startFixtureNode();
    const peers = result('info.peers', 'default');
    peers.peers.push({ ...peers.peers[0], nodeID: result('info.getNodeID', 'default').nodeID, ip: '198.51.100.99:9651', publicIP: '198.51.100.99:9651', supportedACPs: [247], objectedACPs: [236] });
    peers.numPeers = String(peers.peers.length);
    // Same version, same open ACPs: a node keeps peers' votes only for the ACPs it has open itself.
    refNode.override.set('info.acps', () => ({ status: 200, body: JSON.stringify({ jsonrpc: '2.0', result: result('info.acps', 'open'), id: '__ID__' }) }));
    refNode.override.set('info.peers', () => ({ status: 200, body: JSON.stringify({ jsonrpc: '2.0', result: peers, id: '__ID__' }) }));
    const yaml = `web: { disableExporterMetrics: true }
collectors: { info-peers: { perPeer: true }, admin-logger: { enabled: true } }
targets:
  - { name: golden, url: "${node.url}", subnets: ["${L1_SUBNET}"] }
  - { name: golden-reference, url: "${refNode.url}", reference: true }
`;
    const { config } = loadConfig({ argv: ['--config.file', 'golden.yaml'], env: {}, readFile: () => yaml });
    exporter = await startExporter({ config, logger: memoryLogger('silent').logger, now: () => GOLDEN_NOW, listen: false, schedule: false });
    await exporter.collectOnce();
    // A second cycle (the 15 s collectors): info-peers keeps peers' ACP votes once info-acps has found
    // open proposals, so the node's own vote (a cross-target series) appears from the second cycle on.
    await exporter.collectOnce();
    text = normalize(exporter.current().text.toString('utf8'));
  });
  afterAll(async () => {
    await exporter?.stop();
    await node?.close();
    await refNode?.close();
  });

  it('default: matches test/golden/metrics.txt byte for byte (refresh: npm run golden:update)', () => {
    if (process.env['UPDATE_GOLDEN'] === '1') writeFileSync(GOLDEN, text);
    expect(existsSync(GOLDEN), 'golden file missing: run npm run golden:update').toBe(true);
    expect(text).toBe(readFileSync(GOLDEN, 'utf8'));
  });

  it('default: every collector succeeded against real-shaped answers', () => {
    const failed = text.split('\n').filter((l) => l.startsWith('avax_collector_success{') && l.endsWith(' 0'));
    expect(failed).toEqual([]);
    expect(text).toContain('avax_up{target="golden"} 1');
  });

  it.skipIf(!hasPromtool && !process.env['CI'])('default: promtool check metrics is clean', () => {
    const dir = mkdtempSync(join(tmpdir(), 'golden-'));
    const file = join(dir, 'm.txt');
    writeFileSync(file, exporter.current().text);
    const out = spawnSync('sh', ['-c', `promtool check metrics < ${file}`], { encoding: 'utf8' });
    expect(out.stdout + out.stderr).toBe('');
    expect(out.status).toBe(0);
  });
});

void execFileSync;
