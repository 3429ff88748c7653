import { describe, expect, it } from 'vitest';
import { acpNodeVotes } from '../../src/app.js';
import { derivedSamples, maxAchievableUptime } from '../../src/collectors/derived.js';
import { infoAcps, toSamples as acpSamples } from '../../src/collectors/info-acps.js';
import { compareVersions, newerVersionRatio, parseVersion, peerAcps, toSamples as peerSamples } from '../../src/collectors/info-peers.js';
import { infoUpgrades, toSamples as upgradeSamples } from '../../src/collectors/info-upgrades.js';
import { platformValidatorFee, toSamples as feeSamples } from '../../src/collectors/platform-validator-fee.js';
import { delegationCapacityNavax, platformValidators, toSamples as validatorSamples } from '../../src/collectors/platform-validators.js';
import type { Sample } from '../../src/metrics/model.js';
import { HttpError, PRIMARY_NETWORK_ID, RpcError, TimeoutError } from '../../src/node-client/index.js';
import { InfoAcpsResult, InfoPeersResult, InfoUpgradesResult } from '../../src/schemas/info.js';
import { PlatformGetCurrentValidatorsResult, PlatformGetValidatorFeeStateResult } from '../../src/schemas/platform.js';
import type { TargetRunner } from '../../src/scheduler/target-runner.js';
import { result } from '../fixtures/load.js';
import { assertContract, FIXTURE_NOW_MS, fakeClient, lines, makeCtx, valueOf } from './fake.js';

const SELF = 'NodeID-LDRTivJGhE6iCWtfByTZHR6yj7q3cNkXv';
const OTHER = 'NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg';
const P = PRIMARY_NETWORK_ID;
const AVAX = 1_000_000_000n;
const notFound = (m: string) => new RpcError(m, -32601, `rpc: can't find method "${m}"`);

describe('info-upgrades (issue 7: network upgrades)', () => {
  it('default: one series per <name>Time member; unscheduled Helicon is +Inf; numbers and IDs ignored', () => {
    const s = upgradeSamples(InfoUpgradesResult.parse(result('info.upgrades', 'default')));
    assertContract('info-upgrades', s);
    expect(valueOf(s, 'avax_network_upgrade_timestamp_seconds', { upgrade: 'granite' })).toBe(1763568000);
    expect(valueOf(s, 'avax_network_upgrade_timestamp_seconds', { upgrade: 'helicon' })).toBe(Number.POSITIVE_INFINITY);
    const names = s.map((x) => x.labels['upgrade']);
    expect(names).toContain('apricotPhase1');
    expect(names).not.toContain('graniteEpochDuration');
    expect(names).not.toContain('apricotPhase4MinPChainHeight');
    expect(names).not.toContain('cortinaXChainStopVertexID');
    expect(names).toEqual([...names].sort());
  });
  it('behavior: a scheduled Helicon is its time', () => {
    const s = upgradeSamples(InfoUpgradesResult.parse(result('info.upgrades', 'helicon-scheduled')));
    expect(valueOf(s, 'avax_network_upgrade_timestamp_seconds', { upgrade: 'helicon' })).toBe(1785250800);
  });
  it.each([
    ['a number in a *Time member', { graniteTime: 1763568000 }, 'graniteTime'],
    ['a bad date', { graniteTime: 'tomorrow' }, 'graniteTime'],
    ['null', { heliconTime: null }, 'heliconTime'],
  ])('error: %s is rejected, naming the member', (_n, answer, key) => {
    const r = InfoUpgradesResult.safeParse(answer);
    expect(r.success).toBe(false);
    expect(JSON.stringify(r.error!.issues)).toContain(key);
  });
  it('error: more than 64 upgrade times is not an upgrade list (bounded label set)', () => {
    const many = Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`u${i}Time`, '2025-01-01T00:00:00Z']));
    expect(InfoUpgradesResult.safeParse(many).success).toBe(false);
  });
  it('behavior: collect shares Helicon with platform-validators (memo)', async () => {
    const { client } = fakeClient({ 'info.upgrades': result('info.upgrades', 'helicon-scheduled') });
    const { ctx } = makeCtx(client);
    const r = await infoUpgrades.collect(ctx);
    expect(r.errors).toEqual([]);
    expect(ctx.memo.heliconTime).toBe(1785250800);
    expect(ctx.memo.heliconAt).toBe(FIXTURE_NOW_MS);
  });
  it('error: a timeout fails the collector, no series', async () => {
    const { client } = fakeClient({ 'info.upgrades': new TimeoutError('info.upgrades', 5000) });
    expect((await infoUpgrades.collect(makeCtx(client).ctx)).errors.map((e) => e.name)).toEqual(['TimeoutError']);
  });
});

describe('info-acps (issue 7: ACPs)', () => {
  it('default: v1.14.2 has no open proposal → no series', () => {
    expect(acpSamples(InfoAcpsResult.parse(result('info.acps', 'default')))).toEqual([]);
  });
  it('behavior: open proposals → support, object and abstain weights per ACP, ascending', () => {
    const s = acpSamples(InfoAcpsResult.parse(result('info.acps', 'open')));
    assertContract('info-acps', s);
    expect(lines(s)).toEqual([
      'avax_acp_support_weight{acp="236"} 24000000000000000',
      'avax_acp_object_weight{acp="236"} 36000000000000000',
      'avax_acp_abstain_weight{acp="236"} 180000000000000000',
      'avax_acp_support_weight{acp="247"} 150000000000000000',
      'avax_acp_object_weight{acp="247"} 0',
      'avax_acp_abstain_weight{acp="247"} 90000000000000000',
    ]);
  });
  it('error: a non-numeric proposal key or a missing weight is rejected', () => {
    expect(InfoAcpsResult.safeParse({ acps: { x: { supportWeight: '1', objectWeight: '0', abstainWeight: '0' } } }).success).toBe(false);
    expect(InfoAcpsResult.safeParse({ acps: { 1: { supportWeight: '1', objectWeight: '0' } } }).success).toBe(false);
  });
  it.each([
    ['method absent', notFound('info.acps')],
    ['API disabled (404)', new HttpError('info.acps', 404, '404 page not found')],
  ])('behavior: %s → no series, success, logged once', async (_n, err) => {
    const { client } = fakeClient({ 'info.acps': err });
    const { ctx, lines: log } = makeCtx(client);
    expect(await infoAcps.collect(ctx)).toEqual({ samples: [], errors: [] });
    await infoAcps.collect(ctx);
    expect(log.filter((l) => l.level === 'info')).toHaveLength(1);
    expect(ctx.memo.openAcps).toBeUndefined();
  });
  it('behavior: collect records the open proposals for the node-vote series; a failure forgets them', async () => {
    let answer: unknown = result('info.acps', 'open');
    const { client } = fakeClient({ 'info.acps': () => answer });
    const { ctx } = makeCtx(client);
    await infoAcps.collect(ctx);
    expect(ctx.memo.openAcps).toEqual([236, 247]);
    answer = new TimeoutError('info.acps', 5000);
    expect((await infoAcps.collect(ctx)).errors).toHaveLength(1);
    expect(ctx.memo.openAcps).toBeUndefined();
  });
});

describe('platform-validator-fee (issue 7: L1 fee)', () => {
  it('default: numbers on the wire → the price', () => {
    const s = feeSamples(PlatformGetValidatorFeeStateResult.parse(result('platform.getValidatorFeeState', 'default')));
    assertContract('platform-validator-fee', s);
    expect(lines(s)).toEqual(['avax_l1_validator_fee_price_navax_per_second 512']);
  });
  it('behavior: decimal strings are accepted', () => {
    expect(valueOf(feeSamples(PlatformGetValidatorFeeStateResult.parse(result('platform.getValidatorFeeState', 'strings'))), 'avax_l1_validator_fee_price_navax_per_second')).toBe(2048);
  });
  it('behavior: node older than v1.12.2 (method absent) → no series, success', async () => {
    const { client } = fakeClient({ 'platform.getValidatorFeeState': notFound('platform.getValidatorFeeState') });
    expect(await platformValidatorFee.collect(makeCtx(client).ctx)).toEqual({ samples: [], errors: [] });
  });
  it('error: a negative or missing price is rejected', () => {
    expect(PlatformGetValidatorFeeStateResult.safeParse({ excess: 0, price: -1 }).success).toBe(false);
    expect(PlatformGetValidatorFeeStateResult.safeParse({ excess: 0 }).success).toBe(false);
  });
});

describe('platform-validators additions (issue 7)', () => {
  const vals = (n: string) => PlatformGetCurrentValidatorsResult.parse(result('platform.getCurrentValidators', n)).validators;
  const own = () => vals('primary-watched')[0]!;
  const key = own().signer!.publicKey!;

  it.each([
    ['5 × own stake binds', 2000n * AVAX, 50n * AVAX, 7950n * AVAX],
    ['the 3,000,000 AVAX cap binds', 1_000_000n * AVAX, 0n, 2_000_000n * AVAX],
    ['full (delegations = 4 × own)', 2000n * AVAX, 8000n * AVAX, 0n],
    ['over-full never goes below 0', 2000n * AVAX, 9000n * AVAX, 0n],
  ])('delegation capacity: %s', (_n, ownStake, delegated, want) => {
    expect(delegationCapacityNavax(ownStake, delegated)).toBe(want);
  });
  it('behavior: BLS key of the node equals the registered signer → 1 (case-insensitive)', () => {
    const s = validatorSamples([{ subnet: P, watched: [SELF], validators: [own()] }], { ownNodeId: SELF, ownBlsPublicKey: key.toUpperCase().replace('0X', '0x').toLowerCase() });
    expect(valueOf(s, 'avax_validator_bls_key_matches', { node_id: SELF })).toBe(1);
  });
  it('behavior: a different key, or no signer registered → 0', () => {
    const other = '0x' + 'ab'.repeat(48);
    expect(valueOf(validatorSamples([{ subnet: P, watched: [SELF], validators: [own()] }], { ownNodeId: SELF, ownBlsPublicKey: other }), 'avax_validator_bls_key_matches')).toBe(0);
    const noSigner = { ...own(), signer: undefined };
    expect(valueOf(validatorSamples([{ subnet: P, watched: [SELF], validators: [noSigner] }], { ownNodeId: SELF, ownBlsPublicKey: key }), 'avax_validator_bls_key_matches')).toBe(0);
  });
  it('behavior: no BLS series for other watched IDs, or when the node key is unknown', () => {
    const s = validatorSamples([{ subnet: P, watched: [SELF], validators: [own()] }], { ownNodeId: OTHER, ownBlsPublicKey: key });
    expect(valueOf(s, 'avax_validator_bls_key_matches')).toBeUndefined();
    expect(valueOf(validatorSamples([{ subnet: P, watched: [SELF], validators: [own()] }], { ownNodeId: SELF }), 'avax_validator_bls_key_matches')).toBeUndefined();
  });
  it('behavior: collect learns the BLS key from info.getNodeID; mismatch after a re-key', async () => {
    const nodeId = result('info.getNodeID', 'default');
    const { client } = fakeClient({
      'info.getNodeID': () => nodeId,
      'info.upgrades': result('info.upgrades', 'default'),
      'platform.getCurrentValidators': result('platform.getCurrentValidators', 'primary-watched'),
    });
    const { ctx } = makeCtx(client);
    expect(valueOf((await platformValidators.collect(ctx)).samples, 'avax_validator_bls_key_matches')).toBe(1);
    expect(ctx.memo.blsPublicKey).toBe(key.toLowerCase());
  });
  it('behavior: expected_active: configured IDs 1; the own ID 0, or 1 with --validator.expect-active', async () => {
    const answers = {
      'info.getNodeID': result('info.getNodeID', 'default'),
      'info.upgrades': result('info.upgrades', 'default'),
      'platform.getCurrentValidators': result('platform.getCurrentValidators', 'primary-not-found'),
    };
    const own0 = await platformValidators.collect(makeCtx(fakeClient(answers).client).ctx);
    expect(valueOf(own0.samples, 'avax_validator_expected_active', { node_id: SELF })).toBe(0);
    expect(valueOf(own0.samples, 'avax_validator_active', { node_id: SELF })).toBe(0);
    const own1 = await platformValidators.collect(makeCtx(fakeClient(answers).client, { target: { expectActive: true } }).ctx);
    expect(valueOf(own1.samples, 'avax_validator_expected_active', { node_id: SELF })).toBe(1);
    const conf = await platformValidators.collect(makeCtx(fakeClient(answers).client, { target: { validatorNodeIds: [OTHER] } }).ctx);
    expect(valueOf(conf.samples, 'avax_validator_expected_active', { node_id: OTHER })).toBe(1);
  });
});

describe('version drift (issue 7)', () => {
  it.each([
    ['avalanchego/1.14.2', [1, 14, 2, 1]],
    ['avalanche/1.9.0', [1, 9, 0, 1]],
    ['v1.14.3-rc.1', [1, 14, 3, 0]],
    ['avalanchego/1.15.0+abc', [1, 15, 0, 1]],
    ['avalanchego/dev', undefined],
    ['', undefined],
  ])('parseVersion(%j)', (v, want) => {
    expect(parseVersion(v)).toEqual(want);
  });
  it('behavior: semantic, not string order: 1.14.10 is newer than 1.14.2; a release is newer than its rc', () => {
    expect(compareVersions(parseVersion('avalanchego/1.14.10')!, parseVersion('avalanchego/1.14.2')!)).toBeGreaterThan(0);
    expect('avalanchego/1.14.10' < 'avalanchego/1.14.2').toBe(true); // the trap
    expect(compareVersions(parseVersion('1.14.3')!, parseVersion('1.14.3-rc.2')!)).toBeGreaterThan(0);
  });
  it('behavior: share of peers with a parseable version that run a newer one', () => {
    const m = new Map([
      ['avalanchego/1.14.10', 7],
      ['avalanchego/1.14.2', 2],
      ['avalanchego/1.14.1', 1],
      ['garbage', 5],
    ]);
    expect(newerVersionRatio('avalanchego/1.14.2', m)).toBe(0.7);
    expect(newerVersionRatio(undefined, m)).toBeUndefined();
    expect(newerVersionRatio('avalanchego/1.14.2', new Map([['x', 3]]))).toBeUndefined();
  });
  it('behavior: info-peers exports the ratio when the own version is known (memo from node-info)', () => {
    const v = InfoPeersResult.parse(result('info.peers', 'default'));
    const base = { nowMs: FIXTURE_NOW_MS, silenceSeconds: 60, perPeer: false };
    expect(valueOf(peerSamples(v, base), 'avax_peers_newer_version_ratio')).toBeUndefined();
    expect(valueOf(peerSamples(v, { ...base, nodeVersion: 'avalanchego/1.14.0' }), 'avax_peers_newer_version_ratio')).toBeGreaterThan(0.5);
    expect(valueOf(peerSamples(v, { ...base, nodeVersion: 'avalanchego/1.14.2' }), 'avax_peers_newer_version_ratio')).toBe(0);
  });
  it('behavior: peers\' ACP stances are kept by NodeID (first entry wins)', () => {
    const v = InfoPeersResult.parse(result('info.peers', 'default'));
    const m = peerAcps(v.peers);
    expect(m.size).toBe(new Set(v.peers.map((p) => p.nodeID)).size);
    expect(m.get('NodeID-JYqs9fvaqfAU1BGS6PwYs887YMLCtn3J3')!.supported).toContain(226);
  });
});

describe('derived series (issue 7)', () => {
  const T = 'node';
  const S = (name: string, labels: Record<string, string>, value: number): Sample => ({ name, labels: { target: T, ...labels }, value });
  const DAY = 86400;
  const now = 1_800_000_000;
  const validation = (start: number, end: number, u: number) => [
    S('avax_node_info', { node_id: SELF, version: 'avalanchego/1.14.2' }, 1),
    S('avax_uptime_weighted_average_ratio', {}, u),
    S('avax_validator_start_timestamp_seconds', { subnet: P, node_id: SELF }, start),
    S('avax_validator_end_timestamp_seconds', { subnet: P, node_id: SELF }, end),
  ];

  it('behavior: max achievable = (u·elapsed + remaining) / duration: 60 % after 80 % of the time → 68 %', () => {
    const d = derivedSamples(validation(now - 24 * DAY, now + 6 * DAY, 0.6), now, T);
    expect(d).toEqual([{ name: 'avax_validator_uptime_max_achievable_ratio', labels: { target: T, subnet: P, node_id: SELF }, value: 0.68 }]);
  });
  it('behavior: before the start 1, after the end the uptime itself, clamped to [0, 1]', () => {
    expect(maxAchievableUptime(0.5, 100, 200, 50)).toBe(1);
    expect(maxAchievableUptime(0.5, 100, 200, 250)).toBe(0.5);
    expect(maxAchievableUptime(1.2, 100, 200, 150)).toBe(1);
  });
  it('behavior: only for the own ID, only with every input present', () => {
    const v = validation(now - DAY, now + DAY, 0.9);
    expect(derivedSamples(v.filter((s) => s.name !== 'avax_uptime_weighted_average_ratio'), now, T)).toEqual([]);
    expect(derivedSamples(v.filter((s) => s.name !== 'avax_node_info'), now, T)).toEqual([]);
    const other = v.map((s) => (s.labels['node_id'] && s.name !== 'avax_node_info' ? { ...s, labels: { ...s.labels, node_id: OTHER } } : s));
    expect(derivedSamples(other, now, T)).toEqual([]);
  });
  it('behavior: runway = balance / price per L1 validator; 0 when inactive; none without a price', () => {
    const L1 = 'l1';
    const samples = [
      S('avax_l1_validator_fee_price_navax_per_second', {}, 512),
      S('avax_l1_validator_balance_avax', { subnet: L1, node_id: SELF }, 0.0442368), // 512 nAVAX/s × 1 day
      S('avax_l1_validator_balance_avax', { subnet: L1, node_id: OTHER }, 0),
    ];
    expect(lines(derivedSamples(samples, now, T))).toEqual([
      `avax_l1_validator_balance_runway_seconds{node_id="${SELF}",subnet="l1",target="node"} 86400`,
      `avax_l1_validator_balance_runway_seconds{node_id="${OTHER}",subnet="l1",target="node"} 0`,
    ]);
    expect(derivedSamples(samples.slice(1), now, T)).toEqual([]);
  });
});

describe('avax_acp_node_vote (issue 7: the node\'s own stance, seen from another target)', () => {
  type Memo = ReturnType<TargetRunner['memoView']>;
  const runner = (name: string, memo: Memo, up: number | undefined = 1) => ({ name, memoView: () => memo, upState: () => up }) as unknown as TargetRunner;
  const votes = (s: Sample[]) => s.filter((x) => x.value === 1).map((x) => `${x.labels['target']} ${x.labels['acp']} ${x.labels['vote']}`);

  it('behavior: support / object / abstain from the peer entry another target has for the node', () => {
    const a = runner('a', { nodeId: SELF, openAcps: [236, 247, 300] });
    const b = runner('b', { nodeId: OTHER, openAcps: [236, 247, 300], peerAcps: new Map([[SELF, { supported: [247], objected: [236] }]]) });
    const s = acpNodeVotes([a, b]);
    expect(s).toHaveLength(9);
    expect(votes(s)).toEqual(['a 236 object', 'a 247 support', 'a 300 abstain']);
  });
  it('behavior: nobody sees the node (single target, or not a peer) → no series, never a guessed abstain', () => {
    const a = runner('a', { nodeId: SELF, openAcps: [247], peerAcps: new Map([[SELF, { supported: [247], objected: [] }]]) });
    expect(acpNodeVotes([a])).toEqual([]);
    expect(acpNodeVotes([a, runner('b', { openAcps: [247], peerAcps: new Map() })])).toEqual([]);
  });
  it('behavior: a vantage without the ACP open (older version) stores no vote on it → no series for that ACP, not abstain', () => {
    const a = runner('a', { nodeId: SELF, openAcps: [236, 247] });
    const b = runner('b', { openAcps: [247], peerAcps: new Map([[SELF, { supported: [247], objected: [] }]]) });
    expect(votes(acpNodeVotes([a, b]))).toEqual(['a 247 support']);
    expect(acpNodeVotes([a, runner('c', { peerAcps: new Map([[SELF, { supported: [], objected: [] }]]) })])).toEqual([]);
  });
  it('behavior: a target that does not answer (avax_up 0) gets no vote, and is no vantage for another', () => {
    const a = runner('a', { nodeId: SELF, openAcps: [247] });
    const b = runner('b', { openAcps: [247], peerAcps: new Map([[SELF, { supported: [247], objected: [] }]]) });
    expect(votes(acpNodeVotes([a, b]))).toEqual(['a 247 support']);
    expect(acpNodeVotes([runner('a', { nodeId: SELF, openAcps: [247] }, 0), b])).toEqual([]);
    expect(acpNodeVotes([a, runner('b', { openAcps: [247], peerAcps: new Map([[SELF, { supported: [247], objected: [] }]]) }, 0)])).toEqual([]);
  });
  it('behavior: no open proposal or unknown own ID → no series', () => {
    const b = runner('b', { openAcps: [247], peerAcps: new Map([[SELF, { supported: [247], objected: [] }]]) });
    expect(acpNodeVotes([runner('a', { nodeId: SELF, openAcps: [] }), b])).toEqual([]);
    expect(acpNodeVotes([runner('a', { nodeId: '', openAcps: [247] }), b])).toEqual([]);
  });
});
