/**
 * The exporter against the answers recorded from real avalanchego v1.12.2 and v1.11.7 validators
 * (test/fixtures/real-node-v1.12.2/ and real-node-v1.11.7/, replayed by test/helpers/recorded-node.ts;
 * v1.14.2 is real-node.test.ts): with every collector on, as the exporter ran against those nodes
 * (their READMEs' command line), each collector reports success, the calls the version lacks or that
 * have nothing to show are exactly the DECLARED normal states listed below, nothing is logged as a
 * failure, and every value is the recorded one (read from the recordings, not copied by hand).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startExporter, type Exporter } from '../../src/main.js';
import { loadConfig } from '../../src/config/load.js';
import { find, parseExposition, value, type ParsedExposition } from '../helpers/exposition-parser.js';
import { promtoolCheck } from '../helpers/promtool.js';
import { memoryLogger } from '../helpers/log.js';
import { REAL_NODE_ID, recordedExchange, recordedResult, startRecordedNode, type RecordedNode, type RecordedVersion } from '../helpers/recorded-node.js';
import { COLLECTORS } from '../../src/collectors/index.js';

const PRIMARY = '11111111111111111111111111111111LpoYY';

interface NormalSeen {
  collector: string;
  method: string;
  path: string;
  state: string;
}

/** On both: the X-Chain after Cortina is linearised, its tx and vertex indexes never get a container. */
const X_INDEXES_EMPTY: NormalSeen[] = [
  { collector: 'index-last-accepted', method: 'index.getLastAccepted', path: '/ext/index/X/tx', state: 'empty' },
  { collector: 'index-last-accepted', method: 'index.getLastAccepted', path: '/ext/index/X/vtx', state: 'empty' },
];

/** What differs between the two recorded nodes, and the normal states each one is in. */
const RECORDED: Record<'1.12.2' | '1.11.7', { subnet: string; scheme: string; normal: NormalSeen[] }> = {
  '1.12.2': {
    // The subnet each README's wallet example created (CreateSubnetTx; no validator, no chain).
    subnet: 'Ht8ci8zcnn1dtymzVYAfiQzMCkx9b8ex9U2GeSWNjkZU1q1vD',
    scheme: 'v1.11.8',
    normal: X_INDEXES_EMPTY,
  },
  '1.11.7': {
    subnet: '29uVeLPJB1eQJkzRemU8g8wZDw5uJRqpab5U2mX9euieVwiEbL',
    scheme: 'v1.11.6',
    normal: [
      ...X_INDEXES_EMPTY,
      // Before v1.11.11 (info.upgrades) and v1.12 (Etna: the P-Chain fee state, L1 validators).
      { collector: 'info-upgrades', method: 'info.upgrades', path: '/ext/info', state: 'absent' },
      { collector: 'network-economics', method: 'platform.getFeeState', path: '/ext/bc/P', state: 'absent' },
      { collector: 'platform-validator-fee', method: 'platform.getValidatorFeeState', path: '/ext/bc/P', state: 'absent' },
    ],
  },
};

/** The exporter's command line against the real nodes (the recordings' READMEs), every collector on. */
const ARGV = ['--collector.admin-logger', '--collector.index-last-accepted.x-tx', '--collector.index-last-accepted.x-vtx', '--collector.info-peers.per-peer', '--validator.expect-active', '--node.timeout', '2s', '--web.disable-exporter-metrics'];

interface Run {
  exporter: Exporter;
  log: ReturnType<typeof memoryLogger>;
  clock: { now: number };
}

async function exporterFor(node: RecordedNode, extra: string[] = []): Promise<Run> {
  const { config } = loadConfig({ argv: ['--node.url', node.url, '--node.name', 'real', ...ARGV, ...extra], env: {}, readFile: () => '' });
  const log = memoryLogger('info');
  // Six seconds after the recording.
  const clock = { now: Date.parse(recordedExchange('info.getNodeVersion.json', node.version).recorded_at) + 6000 };
  const exporter = await startExporter({ config, logger: log.logger, now: () => clock.now, listen: false, schedule: false });
  return { exporter, log, clock };
}

async function cycle(e: Exporter): Promise<ParsedExposition> {
  await e.collectOnce();
  return parseExposition(e.current().text.toString('utf8'));
}

const normalLogs = (run: Run): NormalSeen[] =>
  run.log
    .lines()
    .filter((l) => l['event'] === 'normal_state')
    .map((l) => ({ collector: String(l['collector']), method: String(l['method']), path: String(l['path']), state: String(l['state']) }));
/** Lines at warn or above (collector_failed among them). */
const problems = (run: Run) => run.log.lines().filter((l) => (l['level'] as number) >= 40);
const byPath = (a: NormalSeen, b: NormalSeen) => `${a.collector}${a.path}${a.method}`.localeCompare(`${b.collector}${b.path}${b.method}`);

const avax = (navax: string | number) => Number(navax) / 1e9;
/** RFC3339 (nanoseconds kept: Date.parse stops at milliseconds) → Unix seconds. */
function unix(rfc3339: string): number {
  const m = /^(.*?)(\.\d+)?(Z|[+-]\d\d:\d\d)$/.exec(rfc3339)!;
  return Date.parse(`${m[1]}${m[3]}`) / 1000 + Number(`0${m[2] ?? ''}`);
}

describe.each(['1.12.2', '1.11.7'] as const)('real node v%s (recorded answers)', (version) => {
  const rec = RECORDED[version];
  const r = <T = any>(file: string): T => recordedResult<T>(file, version);
  let node: RecordedNode;
  beforeAll(async () => {
    node = await startRecordedNode({ version });
  });
  afterAll(async () => {
    await node.close();
  });

  it('default: every collector succeeds, the declared normal states are exactly the expected ones, no failure is logged', async () => {
    const run = await exporterFor(node);
    try {
      const p = await cycle(run.exporter);
      expect(node.unmatched).toEqual([]);
      for (const c of COLLECTORS) expect(value(p, 'avax_collector_success', { collector: c.name }), c.name).toBe(1);
      expect(problems(run)).toEqual([]);
      expect(normalLogs(run).sort(byPath)).toEqual([...rec.normal].sort(byPath));
      // The request counters say the same: normal_state for those calls, ok for every other request.
      const counted = new Map<string, number>();
      for (const n of rec.normal) counted.set(n.method, (counted.get(n.method) ?? 0) + 1);
      for (const s of find(p, 'avax_rpc_requests_total').filter((s) => s.value > 0)) {
        const method = s.labels['method']!;
        expect(`${method} ${s.labels['result']}`).toMatch(counted.has(method) ? / (ok|normal_state)$/ : / ok$/);
        if (s.labels['result'] === 'normal_state') expect(s.value, method).toBe(counted.get(method));
      }
      expect(value(p, 'avax_up')).toBe(1);
      promtoolCheck(run.exporter.current().text);
    } finally {
      await run.exporter.stop();
    }
  });

  it('default: the values are the recorded ones', async () => {
    const run = await exporterFor(node);
    try {
      const p = await cycle(run.exporter);
      const own = { node_id: REAL_NODE_ID };
      // Identity (node-info, node-ip).
      const v = r('info.getNodeVersion.json');
      expect(find(p, 'avax_node_info')[0]!.labels).toEqual({
        target: 'real',
        node_id: r('info.getNodeID.json').nodeID,
        version: v.version,
        database_version: v.databaseVersion,
        git_commit: v.gitCommit,
        rpc_protocol_version: v.rpcProtocolVersion,
        network_id: r('info.getNetworkID.json').networkID,
        network_name: r('info.getNetworkName.json').networkName,
        ip: r('info.getNodeIP.json').ip,
      });
      expect(v.version).toBe(`avalanchego/${version}`);
      // Heights and P-Chain time (chain-height), the node's own view of them (node-metrics).
      const heights = { P: Number(r('platform.getHeight.json').height), X: Number(r('avm.getHeight.json').height), C: parseInt(r<string>('eth_blockNumber.json'), 16) };
      expect(heights).toEqual({ P: 2, X: 1, C: 1 }); // the READMEs' one transaction per chain
      for (const [chain, h] of Object.entries(heights)) {
        expect(value(p, 'avax_chain_height', { chain }), chain).toBe(h);
        expect(value(p, 'avax_node_last_accepted_height', { chain }), chain).toBe(h);
        expect(value(p, 'avax_chain_bootstrapped', { chain }), chain).toBe(r(`info.isBootstrapped-${chain}.json`).isBootstrapped ? 1 : 0);
      }
      expect(value(p, 'avax_pchain_timestamp_seconds')).toBe(unix(r('platform.getTimestamp.json').timestamp));
      expect(value(p, 'avax_node_metrics_scheme', { scheme: rec.scheme })).toBe(1);
      // Health: every recorded check, healthy and run; `bls` from v1.12.2 on.
      const health = JSON.parse(recordedExchange('health.json', version).body) as { healthy: boolean; checks: Record<string, unknown> };
      expect(value(p, 'avax_node_healthy')).toBe(health.healthy ? 1 : 0);
      expect(find(p, 'avax_health_check_healthy').map((s) => [s.labels['check'], s.value])).toEqual(Object.keys(health.checks).sort().map((c) => [c, 1]));
      expect('bls' in health.checks).toBe(version === '1.12.2');
      expect(find(p, 'avax_health_check_pending').every((s) => s.value === 0)).toBe(true);
      // The own validator entry (platform-validators) and the full list (platform-validators-full).
      const mine = r('platform.getCurrentValidators-own.json').validators[0];
      const id = { subnet: PRIMARY, ...own };
      expect(value(p, 'avax_validator_active', id)).toBe(1);
      expect(value(p, 'avax_validator_expected_active', id)).toBe(1);
      expect(value(p, 'avax_validator_connected', id)).toBe(mine.connected ? 1 : 0);
      expect(value(p, 'avax_validator_start_timestamp_seconds', id)).toBe(Number(mine.startTime));
      expect(value(p, 'avax_validator_end_timestamp_seconds', id)).toBe(Number(mine.endTime));
      expect(value(p, 'avax_validator_stake_avax', id)).toBe(avax(mine.weight));
      expect(value(p, 'avax_validator_potential_reward_avax', id)).toBe(avax(mine.potentialReward));
      expect(value(p, 'avax_validator_delegators', id)).toBe(Number(mine.delegatorCount));
      expect(value(p, 'avax_validator_delegator_stake_avax', id)).toBe(avax(mine.delegatorWeight));
      expect(value(p, 'avax_validator_delegation_fee_ratio', id)).toBe(Number(mine.delegationFee) / 100);
      expect(value(p, 'avax_validator_uptime_ratio', id)).toBe(Number(mine.uptime) / 100);
      expect(value(p, 'avax_validator_bls_key_matches', own)).toBe(mine.signer.publicKey === r('info.getNodeID.json').nodePOP.publicKey ? 1 : 0);
      const all = r('platform.getCurrentValidators-all.json').validators as { weight: string }[];
      expect(value(p, 'avax_subnet_validators', { subnet: PRIMARY })).toBe(all.length);
      expect(value(p, 'avax_subnet_stake_avax', { subnet: PRIMARY })).toBe(avax(all.reduce((s, x) => s + Number(x.weight), 0)));
      // Uptime (info-uptime), peers (info-peers: none on the recorded single-node network).
      const up = r('info.uptime.json');
      expect(value(p, 'avax_uptime_weighted_average_ratio')).toBe(Number(up.weightedAveragePercentage) / 100);
      expect(value(p, 'avax_uptime_rewarding_stake_ratio')).toBe(Number(up.rewardingStakePercentage) / 100);
      expect(value(p, 'avax_peers')).toBe(Number(r('info.peers.json').numPeers));
      // Index (index-last-accepted): the block indexes' last containers; X tx / vtx empty.
      for (const chain of ['P', 'X', 'C']) {
        const last = r(`index.getLastAccepted-${chain}-block.json`);
        expect(value(p, 'avax_index_last_accepted_index', { chain, kind: 'block' }), chain).toBe(Number(last.index));
        expect(value(p, 'avax_index_last_accepted_timestamp_seconds', { chain, kind: 'block' }), chain).toBeCloseTo(unix(last.timestamp), 6);
      }
      for (const kind of ['tx', 'vtx']) expect(value(p, 'avax_index_available', { chain: 'X', kind }), kind).toBe(0);
      // Economics (network-economics, validator-rewards, platform-validator-fee).
      expect(value(p, 'avax_network_supply_avax')).toBe(avax(r('platform.getCurrentSupply.json').supply));
      expect(value(p, 'avax_network_total_stake_avax')).toBe(avax(r('platform.getTotalStake.json').weight));
      expect(value(p, 'avax_network_min_validator_stake_avax')).toBe(avax(r('platform.getMinStake.json').minValidatorStake));
      expect(value(p, 'avax_network_min_delegator_stake_avax')).toBe(avax(r('platform.getMinStake.json').minDelegatorStake));
      // The recorded getBalance is of the reward owner's address (the genesis validators' is EWOQ's).
      expect(JSON.parse(recordedExchange('platform.getBalance-ewoq.json', version).request.body!).params.addresses).toEqual(mine.validationRewardOwner.addresses);
      expect(value(p, 'avax_reward_owner_balance_avax', own)).toBe(avax(r('platform.getBalance-ewoq.json').balance));
      if (version === '1.12.2') {
        const fee = r('platform.getFeeState.json');
        expect([value(p, 'avax_pchain_gas_price_navax'), value(p, 'avax_pchain_gas_capacity'), value(p, 'avax_pchain_gas_excess')]).toEqual([fee.price, fee.capacity, fee.excess]);
        expect(value(p, 'avax_l1_validator_fee_price_navax_per_second')).toBe(r('platform.getValidatorFeeState.json').price);
      } else {
        // Absent before Etna: no series, and nothing in their place.
        for (const n of ['avax_pchain_gas_price_navax', 'avax_pchain_gas_capacity', 'avax_pchain_gas_excess', 'avax_l1_validator_fee_price_navax_per_second']) expect(find(p, n), n).toEqual([]);
      }
      // Upgrades (info-upgrades): every <name>Time of the answer; v1.12.2 calls Fortuna `fUpgradeTime`.
      const upgrades = find(p, 'avax_network_upgrade_timestamp_seconds').map((s) => [s.labels['upgrade'], s.value]);
      if (version === '1.12.2') {
        const times = Object.entries(r<Record<string, unknown>>('info.upgrades.json')).filter(([k]) => k.endsWith('Time'));
        const expected = times.map(([k, t]) => [k === 'fUpgradeTime' ? 'fortuna' : k.slice(0, -'Time'.length), t === '9999-12-01T00:00:00Z' ? Infinity : unix(String(t))]);
        expect(upgrades).toEqual(expected.sort((a, b) => String(a[0]).localeCompare(String(b[0]))));
        expect(value(p, 'avax_network_upgrade_timestamp_seconds', { upgrade: 'fortuna' })).toBe(Infinity);
      } else {
        expect(upgrades).toEqual([]);
      }
      // ACPs (info-acps): `{}` on both, no open proposal.
      expect(r('info.acps.json')).toEqual({ acps: {} });
      expect(find(p, 'avax_acp_support_weight')).toEqual([]);
      // Chains (subnet-chains): the recorded node runs only the primary network's X and C, which are the
      // other collectors' (avax_chain_bootstrapped, the index, the heights): no avax_chain_* series of
      // subnet-chains, and so neither info.getVMs nor getBlockchainStatus is asked. The node's own
      // primary-network membership is.
      const chains = r('platform.getBlockchains.json').blockchains as { id: string; name: string; subnetID: string; vmID: string }[];
      expect(chains.map((c) => [c.name, c.subnetID])).toEqual(expect.arrayContaining([['X-Chain', PRIMARY], ['C-Chain', PRIMARY]]));
      expect(chains.filter((c) => c.subnetID !== PRIMARY)).toEqual([]);
      for (const n of ['avax_chain_info', 'avax_chain_status', 'avax_chain_vm_installed']) expect(find(p, n), n).toEqual([]);
      expect(value(p, 'avax_subnet_node_is_validator', { subnet: PRIMARY })).toBe(1);
      // Log levels (admin-logger).
      const levels = r('admin.getLoggerLevel.json').loggerLevels as Record<string, { logLevel: string }>;
      expect(find(p, 'avax_node_log_level').map((s) => [s.labels['logger'], s.labels['level']])).toEqual(Object.entries(levels).map(([l, x]) => [l, x.logLevel]));
    } finally {
      await run.exporter.stop();
    }
  });
});

describe.each(['1.12.2', '1.11.7'] as const)('real node v%s over ten minutes', (version) => {
  it('behavior: the normal states stay normal: logged once, counted every time, every collector successful in every cycle', async () => {
    const node = await startRecordedNode({ version });
    const run = await exporterFor(node);
    try {
      let p = await cycle(run.exporter);
      // 40 cycles of 15 s: every collector ran again at least once. The longest interval is 5 min, and
      // the scheduler spreads the 5-minute collectors over the cycles (phases), so the run after the
      // start-up one comes up to two intervals after the start.
      for (let i = 0; i < 40; i++) {
        run.clock.now += 15_000;
        p = await cycle(run.exporter);
        for (const c of COLLECTORS) expect(value(p, 'avax_collector_success', { collector: c.name }), `${c.name} in cycle ${i}`).toBe(1);
      }
      expect(node.unmatched).toEqual([]);
      expect(problems(run)).toEqual([]);
      expect(normalLogs(run).sort(byPath)).toEqual([...RECORDED[version].normal].sort(byPath));
      expect(run.log.lines().filter((l) => l['event'] === 'normal_state_ended')).toEqual([]);
      for (const n of RECORDED[version].normal) expect(value(p, 'avax_rpc_requests_total', { method: n.method, result: 'normal_state' }), n.method).toBeGreaterThan(1);
    } finally {
      await run.exporter.stop();
      await node.close();
    }
  });
});

/**
 * With the subnet the wallet example created (README: CreateSubnetTx, nothing else) watched, the
 * exporter asks platform.getCurrentValidators of that subnet (all, and the own NodeID), which was not
 * recorded. The node has the method (recorded with other params) and the subnet has no validator:
 * platformvm's GetCurrentValidators walks the current stakers filtered by subnet and answers the empty
 * list it started with, the same code path and bytes as a NodeID filter that matches nothing (the
 * same node's `platform.getCurrentValidators-unknown-id.json`, `{"validators":[]}`). A real v1.14.2 node
 * answered exactly that for its subnet before ConvertSubnetToL1Tx (the project's L1 recordings). The
 * premises are checked on the recordings: the subnet exists (getSubnets) and, on v1.12.2, has no
 * validator at the proposed height (getValidatorsAt, `{}`).
 */
describe.each(['1.12.2', '1.11.7'] as const)('real node v%s, watching the subnet it created (--node.subnet)', (version) => {
  const { subnet } = RECORDED[version];
  it('default: every collector succeeds; the subnet shows no validator and no chain', async () => {
    expect(recordedResult('platform.getSubnets.json', version).subnets.map((s: { id: string }) => s.id)).toContain(subnet);
    if (version === '1.12.2') expect(recordedResult('platform.getValidatorsAt-created-subnet-proposed.json', version)).toEqual({});
    const noValidator = 'platform.getCurrentValidators-unknown-id.json';
    expect(recordedResult(noValidator, version)).toEqual({ validators: [] });
    const node = await startRecordedNode({
      version,
      sameAs: [
        { rpc: 'platform.getCurrentValidators', params: { subnetID: subnet }, file: noValidator },
        { rpc: 'platform.getCurrentValidators', params: { subnetID: subnet, nodeIDs: [REAL_NODE_ID] }, file: noValidator },
      ],
    });
    const run = await exporterFor(node, ['--node.subnet', subnet]);
    try {
      const p = await cycle(run.exporter);
      expect(node.unmatched).toEqual([]);
      for (const c of COLLECTORS) expect(value(p, 'avax_collector_success', { collector: c.name }), c.name).toBe(1);
      expect(problems(run)).toEqual([]);
      expect(normalLogs(run).sort(byPath)).toEqual([...RECORDED[version].normal].sort(byPath));
      expect(value(p, 'avax_subnet_validators', { subnet })).toBe(0);
      expect(value(p, 'avax_subnet_node_is_validator', { subnet })).toBe(0);
      // --validator.expect-active asks the node to validate every watched subnet: it does not validate this one.
      expect(value(p, 'avax_validator_active', { subnet, node_id: REAL_NODE_ID })).toBe(0);
      expect(value(p, 'avax_validator_expected_active', { subnet, node_id: REAL_NODE_ID })).toBe(1);
      expect(find(p, 'avax_chain_info').filter((s) => s.labels['subnet'] === subnet)).toEqual([]);
    } finally {
      await run.exporter.stop();
      await node.close();
    }
  });
});
