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
import { replayedExchanges, startRecordedNode, type RecordedNode } from '../helpers/recorded-node.js';

export const GOLDEN = resolve(import.meta.dirname, 'metrics.txt');

/**
 * The supported node versions (docs/compatibility.md "Tested against"): v1.14.2 answers are the fixtures' defaults;
 * v1.13.5 swaps in the answers that differ on a real v1.13.5 node (test/fixtures/README.md).
 */
const VERSIONS = [
  { version: '1.14.2', file: GOLDEN, variants: {} as Record<string, string>, acps: 'open' },
  {
    version: '1.13.5',
    file: resolve(import.meta.dirname, 'metrics-v1.13.5.txt'),
    variants: { 'info.getNodeVersion': 'v1.13.5', 'info.upgrades': 'v1.13.5', 'health.health': 'v1.13.5' } as Record<string, string>,
    // as recorded: ACP-176 (Fortuna, activated) still listed; avax_acp_activated marks it
    acps: 'v1.13.5',
  },
] as const;
/** Fixed clock of the golden run. */
export const GOLDEN_NOW = Date.parse('2026-05-14T09:22:00Z'); // just after the fixtures' timestamps
/** The L1 of platform.getBlockchains/default.json (its chain's info, status and VM show). */
export const L1_SUBNET = '2WwuvKi7DvvPcAZJTyqbGe5C5SMk6Ppbu6cXnMemej4aVTjqn3';

/** Wall-time values differ run to run; they are replaced by a placeholder. */
export function normalize(text: string): string {
  return text
    .split('\n')
    .map((l) => (/^(avax_collector_duration_seconds|avax_rpc_request_duration_seconds_(bucket|sum))\{/.test(l) ? l.replace(/ [^ ]+$/, ' <wall-time>') : l))
    .join('\n');
}

const hasPromtool = spawnSync('promtool', ['--version']).status === 0;

describe.each(VERSIONS)('golden /metrics, avalanchego v$version', ({ version, file, variants, acps }) => {
  let node: FixtureNode;
  let refNode: FixtureNode;
  let exporter: Exporter;
  let text = '';

  beforeAll(async () => {
    node = await startFixtureNode(variants);
    // v1.14.2: two open ACPs on the watched node (a mainnet v1.14.2 node has none; the shape is docs/avalanchego-wire.md's).
    node.override.set('info.acps', () => ({ status: 200, body: JSON.stringify({ jsonrpc: '2.0', result: result('info.acps', acps), id: '__ID__' }) }));
    // Two targets: the node, and a reference node (node-specific calls skipped) that has the watched node
    // among its peers, so that the cross-target series (blocks behind, the node's own ACP vote) exist too.
    refNode = await startFixtureNode(variants);
    const peers = result('info.peers', 'default');
    peers.peers.push({ ...peers.peers[0], nodeID: result('info.getNodeID', 'default').nodeID, ip: '198.51.100.99:9651', publicIP: '198.51.100.99:9651', supportedACPs: [247], objectedACPs: [236] });
    peers.numPeers = String(peers.peers.length);
    // Same version, same open ACPs: a node keeps peers' votes only for the ACPs it has open itself.
    refNode.override.set('info.acps', () => ({ status: 200, body: JSON.stringify({ jsonrpc: '2.0', result: result('info.acps', acps), id: '__ID__' }) }));
    refNode.override.set('info.peers', () => ({ status: 200, body: JSON.stringify({ jsonrpc: '2.0', result: peers, id: '__ID__' }) }));
    // Issue 14: in the first cycle the own validation is an earlier one, past its end and not yet rewarded
    // (a validator stays listed until its RewardValidatorTx is accepted); in the second the current one
    // (primary-watched) has replaced it, so validator-rewards judges the earlier one with
    // platform.getRewardUTXOs (default.json: paid) and the last-reward series exist.
    const earlier = result('platform.getCurrentValidators', 'primary-watched');
    Object.assign(earlier.validators[0], { txID: cb58Id('golden-ended-validation'), startTime: String(GOLDEN_NOW / 1000 - 30 * 86400), endTime: String(GOLDEN_NOW / 1000 - 120) });
    node.override.set('platform.getCurrentValidators', (p) =>
      Array.isArray(p?.['nodeIDs']) && p['nodeIDs'].length === 1 && !p['subnetID'] ? { status: 200, body: JSON.stringify({ jsonrpc: '2.0', result: earlier, id: '__ID__' }) } : undefined,
    );
    const yaml = `web: { disableExporterMetrics: true }
collectors: { info-peers: { perPeer: true }, validator-rewards: { interval: 15s }, admin-logger: { enabled: true } }
targets:
  - { name: golden, url: "${node.url}", subnets: ["${L1_SUBNET}"] }
  - { name: golden-reference, url: "${refNode.url}", reference: true }
`;
    const { config } = loadConfig({ argv: ['--config.file', 'golden.yaml'], env: {}, readFile: () => yaml });
    exporter = await startExporter({ config, logger: memoryLogger('silent').logger, now: () => GOLDEN_NOW, listen: false, schedule: false });
    await exporter.collectOnce();
    node.override.delete('platform.getCurrentValidators');
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

  it(`default: matches test/golden/${file.split('/').pop()} byte for byte (refresh: npm run golden:update)`, () => {
    if (process.env['UPDATE_GOLDEN'] === '1') writeFileSync(file, text);
    expect(existsSync(file), 'golden file missing: run npm run golden:update').toBe(true);
    expect(text).toBe(readFileSync(file, 'utf8'));
  });

  it('default: every collector succeeded against real-shaped answers', () => {
    const failed = text.split('\n').filter((l) => l.startsWith('avax_collector_success{') && l.endsWith(' 0'));
    expect(failed).toEqual([]);
    expect(text).toContain('avax_up{target="golden"} 1');
    expect(text).toContain(`version="avalanchego/${version}"`);
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

/**
 * The answers of a real avalanchego v1.15.0 node with Helicon active (test/fixtures/real-node-v1.15.0/, replayed
 * as recorded: the C-Chain on SAE, the six Helicon ACPs listed, Coreth's registry frozen), with every collector on
 * as the exporter ran against that node, six seconds after the recording.
 */
describe('golden /metrics, a real avalanchego v1.15.0 node (recorded answers)', () => {
  const file = resolve(import.meta.dirname, 'metrics-real-v1.15.0.txt');
  let node: RecordedNode;
  let exporter: Exporter;
  let text = '';
  beforeAll(async () => {
    node = await startRecordedNode({ version: '1.15.0' });
    const argv = ['--node.url', node.url, '--node.name', 'real', '--collector.admin-logger', '--collector.index-last-accepted.x-tx', '--collector.index-last-accepted.x-vtx', '--collector.info-peers.per-peer', '--validator.expect-active', '--web.disable-exporter-metrics'];
    const { config } = loadConfig({ argv, env: {}, readFile: () => '' });
    const now = Math.max(...replayedExchanges('1.15.0').map((e) => Date.parse(e.recorded_at))) + 6000;
    exporter = await startExporter({ config, logger: memoryLogger('silent').logger, now: () => now, listen: false, schedule: false });
    await exporter.collectOnce();
    text = normalize(exporter.current().text.toString('utf8'));
  });
  afterAll(async () => {
    await exporter?.stop();
    await node?.close();
  });

  it('default: matches test/golden/metrics-real-v1.15.0.txt byte for byte (refresh: npm run golden:update)', () => {
    if (process.env['UPDATE_GOLDEN'] === '1') writeFileSync(file, text);
    expect(existsSync(file), 'golden file missing: run npm run golden:update').toBe(true);
    expect(text).toBe(readFileSync(file, 'utf8'));
    expect(node.unmatched).toEqual([]);
    expect(text.split('\n').filter((l) => l.startsWith('avax_collector_success{') && l.endsWith(' 0'))).toEqual([]);
  });
});

void execFileSync;
