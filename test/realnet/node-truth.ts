// What a real node says, side by side with what the exporter published for it: each check asks the node
// itself (node-rpc.ts, nothing of the exporter in between) and names every series that differs. Only
// values that stand still while the network is quiet are compared (the tests pause the C-Chain traffic
// and wait for a fresh cycle first); process figures that move every second (memory, goroutines) are not.
import { find, value, type ParsedExposition } from '../helpers/exposition-parser.js';
import { getText, rpc } from './node-rpc.js';
import type { RealNode } from './network.js';

export interface Mismatch {
  readonly series: string;
  readonly exporter: number | string | undefined;
  readonly node: number | string | undefined;
}

const PRIMARY = '11111111111111111111111111111111LpoYY';
/**
 * The ACPs each upgrade a node of these releases may still list activates, from avalanchego's RELEASES.md (v1.12.0
 * Etna, v1.13.0 Fortuna, v1.14.0 Granite, v1.15.0 Helicon), written here apart from the exporter's own table.
 */
const UPGRADE_ACPS: Readonly<Record<string, readonly number[]>> = {
  etnaTime: [77, 103, 118, 125, 131, 151],
  fortunaTime: [176],
  graniteTime: [181, 204, 226],
  heliconTime: [194, 236, 267, 273, 283, 285],
};
const NAVAX = 1e9;

/** Samples of node `/ext/metrics` text: `name{labels}` → value (labels as written). */
export function nodeMetric(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(name + '{') && !line.startsWith(name + ' ')) continue;
    if (!Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`))) continue;
    return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return undefined;
}

class Checker {
  readonly out: Mismatch[] = [];
  constructor(
    private readonly p: ParsedExposition,
    private readonly target: string,
  ) {}
  /**
   * `name{target, ...labels}` must equal `want` (within 1e-9 relative: AVAX from nAVAX), or within `tolerance`
   * for a figure that moves with the clock (an uptime of a node that was down drifts by 1e-6 a second).
   */
  eq(name: string, labels: Record<string, string>, want: number | undefined, tolerance = 0): void {
    const got = value(this.p, name, { target: this.target, ...labels });
    const same = got !== undefined && want !== undefined && (got === want || Math.abs(got - want) <= Math.max(tolerance, 1e-9 * Math.max(1, Math.abs(want))));
    if (!same) this.out.push({ series: `${name}${JSON.stringify({ target: this.target, ...labels })}`, exporter: got, node: want });
  }
  /** No `name{target, ...labels}` at all (a family the node's state gives no series for). */
  absent(name: string, labels: Record<string, string> = {}): void {
    const got = find(this.p, name, { target: this.target, ...labels });
    if (got.length > 0) this.out.push({ series: `${name}${JSON.stringify({ target: this.target, ...labels })}`, exporter: got[0]!.value, node: 'no series' });
  }
  /** The label values of `label` over `name{target}` must be exactly `want`. */
  labels(name: string, label: string, want: readonly string[]): void {
    const got = [...new Set(find(this.p, name, { target: this.target }).map((s) => s.labels[label] ?? ''))].sort();
    const w = [...new Set(want)].sort();
    if (JSON.stringify(got) !== JSON.stringify(w)) this.out.push({ series: `${name}{target="${this.target}"} ${label} values`, exporter: got.join(','), node: w.join(',') });
  }
}

const hexToNumber = (h: unknown) => Number(BigInt(String(h)));
const pct = (s: unknown) => Number(s) / 100;

interface ValidatorEntry {
  nodeID: string;
  txID: string;
  startTime: string;
  endTime: string;
  weight: string;
  connected: boolean;
  uptime: string;
  potentialReward?: string;
  delegationFee?: string;
}

/** Every mismatch between the exporter's series of `node` (target `node.name`) and the node's own answers. */
export async function compareWithNode(p: ParsedExposition, node: RealNode, watched: readonly string[]): Promise<Mismatch[]> {
  const c = new Checker(p, node.name);
  const info = (m: string, params: unknown = {}) => rpc(node.url, '/ext/info', m, params);
  const platform = (m: string, params: unknown = {}) => rpc(node.url, '/ext/bc/P', m, params);

  // node-info, node-ip
  const id = (await info('info.getNodeID')) as { nodeID: string };
  const ver = (await info('info.getNodeVersion')) as { version: string; databaseVersion: string; rpcProtocolVersion: string };
  const ip = (await info('info.getNodeIP')) as { ip: string };
  const nodeInfo = find(p, 'avax_node_info', { target: node.name })[0]?.labels ?? {};
  for (const [k, want] of Object.entries({ node_id: id.nodeID, version: ver.version, database_version: ver.databaseVersion, rpc_protocol_version: ver.rpcProtocolVersion, network_id: '88888', ip: ip.ip })) {
    if (nodeInfo[k] !== want) c.out.push({ series: `avax_node_info{target="${node.name}"} ${k}`, exporter: nodeInfo[k], node: want });
  }

  // health
  const health = await getText(node.url, '/ext/health');
  const checks = (JSON.parse(health.text) as { checks: Record<string, { error?: unknown }> }).checks;
  c.eq('avax_node_healthy', {}, health.status === 200 ? 1 : 0);
  c.labels('avax_health_check_healthy', 'check', Object.keys(checks));
  for (const [check, r] of Object.entries(checks)) c.eq('avax_health_check_healthy', { check }, r.error ? 0 : 1);

  // info-is-bootstrapped
  for (const chain of ['P', 'X', 'C']) c.eq('avax_chain_bootstrapped', { chain }, ((await info('info.isBootstrapped', { chain })) as { isBootstrapped: boolean }).isBootstrapped ? 1 : 0);

  // info-peers
  const peers = (await info('info.peers')) as { numPeers: string };
  c.eq('avax_peers', {}, Number(peers.numPeers));

  // info-uptime
  const up = (await info('info.uptime')) as { rewardingStakePercentage: string; weightedAveragePercentage: string };
  // Peers report their view of the node in whole percents, each every 22.5 s: after the node was down, the
  // figures step by up to a peer's share of a percent point between the exporter's read and this one.
  c.eq('avax_uptime_rewarding_stake_ratio', {}, pct(up.rewardingStakePercentage), 0.01);
  c.eq('avax_uptime_weighted_average_ratio', {}, pct(up.weightedAveragePercentage), 0.01);

  // platform-validators (the node's own view of each watched ID), platform-validators-full
  const own = ((await platform('platform.getCurrentValidators', { nodeIDs: watched })) as { validators: ValidatorEntry[] }).validators;
  c.labels('avax_validator_active', 'node_id', watched);
  for (const v of own) {
    const l = { subnet: PRIMARY, node_id: v.nodeID };
    c.eq('avax_validator_active', l, 1);
    c.eq('avax_validator_connected', l, v.connected ? 1 : 0);
    // The node's answer is read seconds after the exporter's: an uptime below 100 % moves meanwhile (after a node
    // was down for a minute of a validation that started 30 minutes ago, by up to 2e-4 in 5 s).
    c.eq('avax_validator_uptime_ratio', l, pct(v.uptime), 1e-3);
    c.eq('avax_validator_stake_avax', l, Number(v.weight) / NAVAX);
    c.eq('avax_validator_start_timestamp_seconds', l, Number(v.startTime));
    c.eq('avax_validator_end_timestamp_seconds', l, Number(v.endTime));
    c.eq('avax_validator_potential_reward_avax', l, Number(v.potentialReward) / NAVAX);
  }
  const all = ((await platform('platform.getCurrentValidators')) as { validators: ValidatorEntry[] }).validators;
  c.eq('avax_subnet_stake_avax', { subnet: PRIMARY }, all.reduce((s, v) => s + Number(v.weight), 0) / NAVAX);

  // chain-height
  c.eq('avax_chain_height', { chain: 'P' }, Number(((await platform('platform.getHeight')) as { height: string }).height));
  c.eq('avax_chain_height', { chain: 'X' }, Number(((await rpc(node.url, '/ext/bc/X', 'avm.getHeight')) as { height: string }).height));
  c.eq('avax_chain_height', { chain: 'C' }, hexToNumber(await rpc(node.url, '/ext/bc/C/rpc', 'eth_blockNumber', [])));

  // info-upgrades
  const upgrades = (await info('info.upgrades')) as Record<string, unknown>;
  for (const [k, t] of Object.entries(upgrades)) {
    if (!k.endsWith('Time') || typeof t !== 'string') continue;
    const s = Date.parse(t) / 1000;
    c.eq('avax_network_upgrade_timestamp_seconds', { upgrade: k.slice(0, -4) }, t.startsWith('9999') ? Infinity : s);
  }

  // info-acps and the ACP activation: the node lists its release's open and scheduled ACPs, with weights; those
  // of an upgrade that has activated on the network (its time in info.upgrades is past) are activated: v1.15.0
  // keeps listing Helicon's, v1.13.5 Fortuna's 176; 224 and 247 are open proposals.
  const acps = ((await info('info.acps')) as { acps: Record<string, { supportWeight: string; objectWeight: string; abstainWeight: string }> }).acps;
  const active = new Set(
    Object.entries(UPGRADE_ACPS).flatMap(([k, list]) => (typeof upgrades[k] === 'string' && Date.parse(upgrades[k] as string) <= Date.now() ? list : [])),
  );
  for (const [acp, a] of Object.entries(acps)) {
    c.eq('avax_acp_support_weight', { acp }, Number(a.supportWeight));
    c.eq('avax_acp_object_weight', { acp }, Number(a.objectWeight));
    c.eq('avax_acp_abstain_weight', { acp }, Number(a.abstainWeight));
    c.eq('avax_acp_activated', { acp }, active.has(Number(acp)) ? 1 : 0);
  }

  // network-economics
  c.eq('avax_network_supply_avax', {}, Number(((await platform('platform.getCurrentSupply')) as { supply: string }).supply) / NAVAX);
  const min = (await platform('platform.getMinStake')) as { minValidatorStake: string; minDelegatorStake: string };
  c.eq('avax_network_min_validator_stake_avax', {}, Number(min.minValidatorStake) / NAVAX);
  c.eq('avax_network_min_delegator_stake_avax', {}, Number(min.minDelegatorStake) / NAVAX);

  // node-metrics: the node's own /ext/metrics, read the same minute
  const m = (await getText(node.url, '/ext/metrics')).text;
  c.eq('avax_node_peers', {}, nodeMetric(m, 'avalanche_network_peers'));
  for (const chain of ['P', 'X', 'C']) {
    c.eq('avax_node_last_accepted_height', { chain }, nodeMetric(m, 'avalanche_snowman_last_accepted_height', { chain }));
    c.eq('avax_node_bootstrap_finished', { chain }, nodeMetric(m, 'avalanche_snowman_bootstrap_finished', { chain }));
    c.eq('avax_node_blocks_accepted_total', { chain }, nodeMetric(m, 'avalanche_snowman_blks_accepted_count', { chain }));
    // Despite its name, avalanche_stake_percent_connected is a share 0-1 (snow/engine/common/tracker/peers.go: ConnectedPercent).
    c.eq('avax_node_stake_connected_ratio', { chain }, nodeMetric(m, 'avalanche_stake_percent_connected', { chain }));
  }
  await compareCchain(c, node, m);
  c.eq('avax_node_max_fds', {}, nodeMetric(m, 'avalanche_process_process_max_fds'));
  c.eq('avax_node_process_start_time_seconds', {}, nodeMetric(m, 'avalanche_process_process_start_time_seconds'));

  // admin-logger
  const levels = ((await rpc(node.url, '/ext/admin', 'admin.getLoggerLevel', { loggerName: '' })) as { loggerLevels: Record<string, { logLevel: string }> }).loggerLevels;
  for (const [logger, l] of Object.entries(levels)) c.eq('avax_node_log_level', { logger, level: l.logLevel }, 1);
  return c.out;
}

/**
 * The C-Chain's internals as the node's /ext/metrics (`m`) shows them: under SAE (v1.15.0+ after Helicon) the
 * accepted, executed (eth_blockNumber, `latest`) and settled (`safe`) heights, the queue and the gas, and no
 * Coreth series (its registry stays exported, frozen); on Coreth its gas counter and no SAE series.
 */
async function compareCchain(c: Checker, node: RealNode, m: string): Promise<void> {
  const sae = (n: string) => nodeMetric(m, `avalanche_evm_transition_sae_${n}`, { chain: 'C' });
  const coreth = ['avax_node_cchain_gas_used_accepted_total', 'avax_node_cchain_bad_blocks_total', 'avax_node_cchain_txpool_pending', 'avax_node_cchain_txpool_queued'];
  const executed = sae('last_executed_height');
  if (executed === undefined) {
    c.eq('avax_node_cchain_vm', { vm: 'coreth' }, 1);
    c.eq('avax_node_cchain_gas_used_accepted_total', {}, nodeMetric(m, 'avalanche_evm_eth_chain_block_gas_used_accepted', { chain: 'C' }));
    c.absent('avax_node_cchain_last_executed_height');
    c.absent('avax_cchain_execution_lag_blocks');
    return;
  }
  const block = async (tag: string) => hexToNumber(((await rpc(node.url, '/ext/bc/C/rpc', 'eth_getBlockByNumber', [tag, false])) as { number: string }).number);
  c.eq('avax_node_cchain_vm', { vm: 'sae' }, 1);
  c.eq('avax_node_cchain_last_executed_height', {}, executed);
  c.eq('avax_node_cchain_last_executed_height', {}, hexToNumber(await rpc(node.url, '/ext/bc/C/rpc', 'eth_blockNumber', [])));
  c.eq('avax_node_cchain_last_executed_height', {}, await block('latest'));
  c.eq('avax_node_cchain_last_settled_height', {}, sae('last_settled_height'));
  c.eq('avax_node_cchain_last_settled_height', {}, await block('safe'));
  c.eq('avax_cchain_execution_lag_blocks', {}, nodeMetric(m, 'avalanche_snowman_last_accepted_height', { chain: 'C' })! - executed);
  for (const [ours, n] of [
    ['avax_node_cchain_execution_queue_blocks', 'execution_queue_blocks'],
    ['avax_node_cchain_executed_gas_charged_total', 'executed_gas_charged_total'],
    ['avax_node_cchain_executed_gas_limit_total', 'executed_gas_limit_total'],
    ['avax_node_cchain_accepted_gas_limit_total', 'accepted_gas_limit_total'],
    ['avax_node_cchain_gas_target_per_second', 'gas_target'],
    ['avax_node_cchain_execute_block_duration_seconds_count', 'execute_block_duration_seconds_count'],
  ] as const) c.eq(ours, {}, sae(n));
  const gap = sae('gas_time_wall_time_gap_seconds');
  // MaxInt64 nanoseconds before the first executed block: no series.
  if (gap !== undefined && Math.abs(gap) >= 9223372036.854775) c.absent('avax_node_cchain_gas_time_wall_time_gap_seconds');
  else c.eq('avax_node_cchain_gas_time_wall_time_gap_seconds', {}, gap);
  for (const n of coreth) c.absent(n);
}
