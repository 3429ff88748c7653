/**
 * The exporter against the answers recorded from a real avalanchego v1.15.0 node with Helicon active
 * (test/fixtures/real-node-v1.15.0/, replayed by test/helpers/recorded-node.ts; README there): the C-Chain
 * runs SAE (ACP-194), info.acps still lists the six Helicon ACPs, and Coreth's registry stays in /ext/metrics,
 * frozen. With every collector on, as the exporter ran against that node, each collector succeeds, nothing is
 * logged as a failure, every value is the node's own answer (read from the recordings, not copied by hand), the
 * Coreth-only C-Chain series are absent, and the ACP alert pages nothing.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { COLLECTORS } from '../../src/collectors/index.js';
import { loadConfig } from '../../src/config/load.js';
import { startExporter, type Exporter } from '../../src/main.js';
import { find, parseExposition, value, type ParsedExposition } from '../helpers/exposition-parser.js';
import { memoryLogger } from '../helpers/log.js';
import { ROOT } from '../helpers/proc.js';
import { HAS_PROMTOOL, promtoolCheck } from '../helpers/promtool.js';
import { REAL_NODE_ID, recordedNodeDir, recordedResult, replayedExchanges, startRecordedNode, type RecordedNode } from '../helpers/recorded-node.js';

const VERSION = '1.15.0';
const r = <T = any>(file: string): T => recordedResult<T>(file, VERSION);
/** The node's own /ext/metrics, recorded with the answers. */
const EXT_METRICS = readFileSync(join(recordedNodeDir(VERSION), 'ext-metrics.txt'), 'utf8');
/** The value of one native sample of the recorded /ext/metrics (name and labels as the node wrote them). */
function native(series: string): number | undefined {
  const line = EXT_METRICS.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}
const C = '{chain="C"}';
/** Six seconds after the last exchange of the recording. */
const NOW = Math.max(...replayedExchanges(VERSION).map((e) => Date.parse(e.recorded_at))) + 6000;
const ARGV = ['--collector.admin-logger', '--collector.index-last-accepted.x-tx', '--collector.index-last-accepted.x-vtx', '--collector.info-peers.per-peer', '--validator.expect-active', '--node.timeout', '2s', '--web.disable-exporter-metrics'];

/** The declared normal states of this node: the indexes that hold no container yet (nothing happened on P, X, C). */
const NORMAL = [
  { collector: 'index-last-accepted', method: 'index.getLastAccepted', path: '/ext/index/C/block', state: 'empty' },
  { collector: 'index-last-accepted', method: 'index.getLastAccepted', path: '/ext/index/P/block', state: 'empty' },
  { collector: 'index-last-accepted', method: 'index.getLastAccepted', path: '/ext/index/X/block', state: 'empty' },
  { collector: 'index-last-accepted', method: 'index.getLastAccepted', path: '/ext/index/X/tx', state: 'empty' },
  { collector: 'index-last-accepted', method: 'index.getLastAccepted', path: '/ext/index/X/vtx', state: 'empty' },
];

describe('real node v1.15.0 with Helicon active (recorded answers)', () => {
  let node: RecordedNode;
  let exporter: Exporter;
  let log: ReturnType<typeof memoryLogger>;
  let p: ParsedExposition;
  let text: string;
  beforeAll(async () => {
    node = await startRecordedNode({ version: VERSION });
    const { config } = loadConfig({ argv: ['--node.url', node.url, '--node.name', 'real', ...ARGV], env: {}, readFile: () => '' });
    log = memoryLogger('info');
    exporter = await startExporter({ config, logger: log.logger, now: () => NOW, listen: false, schedule: false });
    await exporter.collectOnce();
    text = exporter.current().text.toString('utf8');
    p = parseExposition(text);
  });
  afterAll(async () => {
    await exporter?.stop();
    await node?.close();
  });

  it('default: every collector succeeds, the normal states are the empty indexes, nothing is logged at warn or above, promtool is clean', () => {
    expect(node.unmatched).toEqual([]);
    for (const c of COLLECTORS) expect(value(p, 'avax_collector_success', { collector: c.name }), c.name).toBe(1);
    expect(log.lines().filter((l) => (l['level'] as number) >= 40)).toEqual([]);
    const normal = log
      .lines()
      .filter((l) => l['event'] === 'normal_state')
      .map((l) => ({ collector: l['collector'], method: l['method'], path: l['path'], state: l['state'] }));
    expect(normal.sort((a, b) => String(a.path).localeCompare(String(b.path)))).toEqual(NORMAL);
    expect(value(p, 'avax_up')).toBe(1);
    expect(value(p, 'avax_node_info', { version: `avalanchego/${VERSION}`, node_id: REAL_NODE_ID })).toBe(1);
    promtoolCheck(text);
  });

  it("default: the C-Chain's three heights are the node's: accepted (snowman), executed (SAE; eth_blockNumber and `latest`) and settled (SAE; `safe` and `finalized`)", () => {
    const block = (tag: string) => parseInt(r<{ number: string }>(`eth_getBlockByNumber-${tag}.json`).number, 16);
    expect(value(p, 'avax_node_last_accepted_height', { chain: 'C' })).toBe(native(`avalanche_snowman_last_accepted_height${C}`));
    expect(value(p, 'avax_node_cchain_last_executed_height')).toBe(native(`avalanche_evm_transition_sae_last_executed_height${C}`));
    expect(value(p, 'avax_node_cchain_last_settled_height')).toBe(native(`avalanche_evm_transition_sae_last_settled_height${C}`));
    // Under SAE, eth_blockNumber and `latest` are the last executed block; `safe` and `finalized` the last settled one.
    expect(value(p, 'avax_chain_height', { chain: 'C' })).toBe(parseInt(r<string>('eth_blockNumber.json'), 16));
    expect(value(p, 'avax_chain_height', { chain: 'C' })).toBe(block('latest'));
    expect(value(p, 'avax_node_cchain_last_executed_height')).toBe(block('latest'));
    expect(value(p, 'avax_node_cchain_last_settled_height')).toBe(block('safe'));
    expect(value(p, 'avax_node_cchain_last_settled_height')).toBe(block('finalized'));
    expect(value(p, 'avax_cchain_execution_lag_blocks')).toBe(native(`avalanche_snowman_last_accepted_height${C}`)! - native(`avalanche_evm_transition_sae_last_executed_height${C}`)!);
    expect(value(p, 'avax_node_cchain_vm', { vm: 'sae' })).toBe(1);
  });

  it("default: every SAE series is the node's value in our unit; the gas-time gap's MaxInt64-ns sentinel gives no series", () => {
    const same: [ours: string, native: string][] = [
      ['avax_node_cchain_execution_queue_blocks', 'execution_queue_blocks'],
      ['avax_node_cchain_execution_queue_gas_limit', 'execution_queue_gas_limit'],
      ['avax_node_cchain_executed_gas_charged_total', 'executed_gas_charged_total'],
      ['avax_node_cchain_executed_gas_limit_total', 'executed_gas_limit_total'],
      ['avax_node_cchain_accepted_gas_limit_total', 'accepted_gas_limit_total'],
      ['avax_node_cchain_executed_base_fee_wei', 'executed_base_fee'],
      ['avax_node_cchain_worst_case_base_fee_wei', 'worst_case_base_fee'],
      ['avax_node_cchain_gas_target_per_second', 'gas_target'],
      ['avax_node_cchain_execution_queue_duration_seconds_count', 'execution_queue_duration_seconds_count'],
      ['avax_node_cchain_execution_queue_duration_seconds_sum', 'execution_queue_duration_seconds_sum'],
      ['avax_node_cchain_execute_block_duration_seconds_count', 'execute_block_duration_seconds_count'],
      ['avax_node_cchain_execute_block_duration_seconds_sum', 'execute_block_duration_seconds_sum'],
    ];
    for (const [ours, n] of same) {
      const want = native(`avalanche_evm_transition_sae_${n}${C}`);
      expect(want, n).toBeDefined();
      expect(value(p, ours), ours).toBe(want);
    }
    expect(value(p, 'avax_node_cchain_min_block_delay_seconds')).toBe(native(`avalanche_evm_transition_cchain_min_block_delay_seconds${C}`));
    // The buckets: every `le` of the node's, in seconds already.
    const buckets = find(p, 'avax_node_cchain_execute_block_duration_seconds_bucket').map((s) => [s.labels['le'], s.value]);
    const nativeBuckets = [...EXT_METRICS.matchAll(/^avalanche_evm_transition_sae_execute_block_duration_seconds_bucket\{chain="C",le="([^"]+)"\} (\S+)$/gm)].map((m) => [m[1] === '+Inf' ? '+Inf' : String(Number(m[1])), Number(m[2])]);
    expect(buckets).toEqual(nativeBuckets);
    expect(nativeBuckets.length).toBe(17);
    // Before the first executed block the node writes MaxInt64 nanoseconds: no series, not 292 years.
    expect(native(`avalanche_evm_transition_sae_gas_time_wall_time_gap_seconds${C}`)).toBe(9223372036.854776);
    expect(find(p, 'avax_node_cchain_gas_time_wall_time_gap_seconds')).toEqual([]);
  });

  it("default: Coreth's frozen registry gives no series: gas, bad blocks and the tx pool are absent, not 0", () => {
    for (const n of ['avalanche_evm_eth_chain_block_gas_used_accepted', 'avalanche_evm_eth_chain_block_bad_count', 'avalanche_evm_eth_txpool_pending', 'avalanche_evm_eth_txpool_queued']) expect(native(`${n}${C}`), n).toBe(0);
    for (const n of ['avax_node_cchain_gas_used_accepted_total', 'avax_node_cchain_bad_blocks_total', 'avax_node_cchain_txpool_pending', 'avax_node_cchain_txpool_queued']) expect(find(p, n), n).toEqual([]);
  });

  it('default: the six Helicon ACPs are activated, 224 and 247 open; the exporter knows every upgrade the node names', () => {
    const acps = Object.keys(r<{ acps: Record<string, unknown> }>('info.acps.json').acps);
    expect(acps).toEqual(['194', '224', '236', '247', '267', '273', '283', '285']);
    const activated = Object.fromEntries(find(p, 'avax_acp_activated').map((s) => [s.labels['acp'], s.value]));
    expect(activated).toEqual({ 194: 1, 224: 0, 236: 1, 247: 0, 267: 1, 273: 1, 283: 1, 285: 1 });
    expect(value(p, 'avax_acp_table_outdated')).toBe(0);
  });

  it.skipIf(!HAS_PROMTOOL && !process.env['CI'])('default: AvalancheACPMajoritySupport pages nothing on these answers (and, as a control, pages the six Helicon ACPs when they are said open, as before Helicon was in the ACP table)', () => {
    const acpFamilies = /^avax_acp_(support_weight|object_weight|abstain_weight|activated|node_vote)\{/;
    const series = text.split('\n').filter((l) => acpFamilies.test(l));
    expect(series.length).toBe(8 * 3 + 8);
    const run = (lines: readonly string[]) => {
      const dir = mkdtempSync(join(tmpdir(), 'acp-'));
      const input_series = lines.map((l) => ({ series: l.slice(0, l.lastIndexOf(' ')), values: `${l.slice(l.lastIndexOf(' ') + 1)}x120` }));
      const test = { rule_files: [join(ROOT, 'alerts', 'upgrades.rules.yaml')], evaluation_interval: '1m', tests: [{ interval: '1m', input_series, alert_rule_test: [{ eval_time: '110m', alertname: 'AvalancheACPMajoritySupport', exp_alerts: [] }] }] };
      writeFileSync(join(dir, 't.yaml'), YAML.stringify(test));
      const out = spawnSync('promtool', ['test', 'rules', join(dir, 't.yaml')], { encoding: 'utf8', timeout: 60_000 });
      return { status: out.status, out: `${out.stdout}${out.stderr}` };
    };
    const asExported = run(series);
    expect(asExported.out).toContain('SUCCESS');
    expect(asExported.status).toBe(0);
    const before = run(series.map((l) => (l.startsWith('avax_acp_activated{') ? l.replace(/ 1$/, ' 0') : l)));
    expect(before.status).toBe(1);
    for (const acp of ['194', '236', '267', '273', '283', '285']) expect(before.out).toContain(`acp="${acp}"`);
    expect(before.out).not.toContain('acp="224"');
  });
});
