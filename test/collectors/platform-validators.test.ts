import { describe, expect, it } from 'vitest';
import { heliconFrom } from '../../src/collectors/info-upgrades.js';
import { CYCLE_ENDS_KEPT, expectedSubnets, platformValidators, toSamples, trackCycles, uptimeRequirement, watchedIds, type CycleMemory, type WatchedSet } from '../../src/collectors/platform-validators.js';
import { RpcError } from '../../src/node-client/index.js';
import { PRIMARY_NETWORK_ID } from '../../src/avalanche.js';
import { InfoUpgradesResult } from '../../src/schemas/info.js';
import { PlatformGetCurrentValidatorsResult } from '../../src/schemas/platform.js';
import { OTHER, SELF, SUBNET_L1 } from '../fixtures/ids.js';
import { result } from '../fixtures/load.js';
import type { TargetSpec } from '../../src/target.js';
import type { SubnetChainsValue } from '../../src/collectors/subnet-chains.js';
import { assertContract, fakeClient, lines, makeCtx, valueOf } from './fake.js';

const L1A = 'NodeID-C6YjPSfVCoE9msKXoyVzvg3qQasxTJaEA';
const LEGACY = 'NodeID-ECFm8Tp4VQdYrCpPKx5WMi23kugtThCce';
const SUBNET_LEGACY = 'gFkN164b2X6T8iyQCMPmqHfkbcbWNqKgMD4pTHfJZSJHyTT2v';
const vals = (n: string) => PlatformGetCurrentValidatorsResult.parse(result('platform.getCurrentValidators', n)).validators;
const P = PRIMARY_NETWORK_ID;

describe('platform-validators toSamples', () => {
  it('default: own primary-network validator', () => {
    const s = toSamples([{ subnet: P, watched: [SELF], validators: vals('primary-watched') }], { heliconTime: Number.POSITIVE_INFINITY });
    assertContract('platform-validators', s);
    const l = `node_id="${SELF}",subnet="${P}"`;
    expect(lines(s)).toEqual([
      `avax_validator_active{${l}} 1`,
      `avax_validator_connected{${l}} 1`,
      `avax_validator_uptime_ratio{${l}} 1`,
      `avax_validator_start_timestamp_seconds{${l}} 1775000000`,
      `avax_validator_end_timestamp_seconds{${l}} 1790000000`,
      `avax_validator_stake_avax{${l}} 2000`,
      `avax_validator_delegators{${l}} 2`,
      `avax_validator_delegator_stake_avax{${l}} 50`,
      `avax_validator_potential_reward_avax{${l}} 57.534246575`,
      `avax_validator_delegation_fee_ratio{${l}} 0.02`,
      `avax_validator_accrued_delegatee_reward_avax{${l}} 0`,
      `avax_validator_uptime_requirement_ratio{${l}} 0.8`,
      `avax_validator_auto_renewed{${l}} 0`,
      `avax_validator_cycle_end_timestamp_seconds{${l}} 1790000000`,
      // a fixed end: no next period
      `avax_validator_next_period_seconds{${l}} 0`,
    ]);
  });
  it('behavior: an auto-renewed validator (ACP-236, master): 90 % whatever Helicon time is known, its cycle end, its next period', () => {
    const l = `node_id="${SELF}",subnet="${P}"`;
    for (const heliconTime of [undefined, Number.POSITIVE_INFINITY, 1_700_000_000]) {
      const s = lines(toSamples([{ subnet: P, watched: [SELF], validators: vals('auto-renewed') }], { heliconTime }));
      assertContract('platform-validators', toSamples([{ subnet: P, watched: [SELF], validators: vals('auto-renewed') }], { heliconTime }));
      expect(s).toContain(`avax_validator_uptime_requirement_ratio{${l}} 0.9`);
      expect(s).toContain(`avax_validator_auto_renewed{${l}} 1`);
      expect(s).toContain(`avax_validator_cycle_end_timestamp_seconds{${l}} 1779209600`);
      expect(s).toContain(`avax_validator_next_period_seconds{${l}} 1209600`);
      // The ACP-236 config: 30 % re-staked, one key (threshold 1 of 1 address) may change it.
      expect(s).toContain(`avax_validator_auto_compound_reward_ratio{${l}} 0.3`);
      expect(s).toContain(`avax_validator_authority_threshold{${l}} 1`);
      expect(s).toContain(`avax_validator_authority_addresses{${l}} 1`);
    }
    // An earlier master's names; period 0: it leaves at the end of this cycle.
    const exiting = lines(toSamples([{ subnet: P, watched: [SELF], validators: vals('auto-renewed-exiting') }], {}));
    expect(exiting).toContain(`avax_validator_next_period_seconds{${l}} 0`);
    expect(exiting).toContain(`avax_validator_auto_renewed{${l}} 1`);
  });
  it('behavior: a watched ID absent from the set → active 0 and nothing else', () => {
    const s = toSamples([{ subnet: P, watched: [OTHER], validators: vals('primary-not-found') }], {});
    expect(lines(s)).toEqual([`avax_validator_active{node_id="${OTHER}",subnet="${P}"} 0`]);
  });
  it('behavior: L1 entries give balance and weight, no end/uptime/connected/stake', () => {
    const s = toSamples([{ subnet: SUBNET_L1, watched: [SELF, L1A, LEGACY, OTHER], validators: vals('l1') }], {});
    assertContract('platform-validators', s);
    const self = s.filter((x) => x.labels['node_id'] === SELF).map((x) => x.name);
    expect(self).toEqual(['avax_validator_active', 'avax_validator_start_timestamp_seconds', 'avax_l1_validator_balance_avax', 'avax_l1_validator_weight']);
    expect(valueOf(s, 'avax_l1_validator_balance_avax', { node_id: SELF })).toBeCloseTo(9007199.254740993, 6);
    expect(valueOf(s, 'avax_l1_validator_balance_avax', { node_id: L1A })).toBe(0);
    expect(valueOf(s, 'avax_l1_validator_weight', { node_id: L1A })).toBe(18446744073709551615);
    // the legacy validator left after the conversion: start and end only
    expect(s.filter((x) => x.labels['node_id'] === LEGACY).map((x) => x.name)).toEqual([
      'avax_validator_active',
      'avax_validator_start_timestamp_seconds',
      'avax_validator_end_timestamp_seconds',
    ]);
    expect(valueOf(s, 'avax_validator_active', { node_id: OTHER })).toBe(0);
  });
  it('behavior: legacy permissioned subnet (weight is not AVAX: no stake series)', () => {
    const s = toSamples([{ subnet: SUBNET_LEGACY, watched: [SELF], validators: vals('legacy-subnet') }], {});
    expect(s.map((x) => x.name)).toEqual(['avax_validator_active', 'avax_validator_start_timestamp_seconds', 'avax_validator_end_timestamp_seconds']);
  });
  it('behavior: elastic subnet (no uptime/connected; no uptime requirement off the primary network)', () => {
    const s = toSamples([{ subnet: SUBNET_LEGACY, watched: [SELF], validators: vals('elastic-subnet') }], {});
    const names = s.map((x) => x.name);
    expect(names).not.toContain('avax_validator_connected');
    expect(names).not.toContain('avax_validator_uptime_ratio');
    expect(names).not.toContain('avax_validator_uptime_requirement_ratio');
    expect(names).toContain('avax_validator_potential_reward_avax');
  });
  it('behavior: stake beyond 2^53 nAVAX (spec variant)', () => {
    const s = toSamples([{ subnet: P, watched: [SELF], validators: vals('spec-variant') }], {});
    expect(valueOf(s, 'avax_validator_stake_avax')).toBeCloseTo(12345678901.234568, 3);
    expect(valueOf(s, 'avax_validator_uptime_ratio')).toBe(0.995);
  });
  it('behavior: expected_active follows the (node ID, subnet) pairs it is given, 0 on every other watched subnet', () => {
    const c = { expected: new Map([[OTHER, new Set([P])], [SELF, new Set([P, SUBNET_L1])]]) };
    const s = toSamples([{ subnet: P, watched: [OTHER, SELF], validators: [] }, { subnet: SUBNET_L1, watched: [OTHER, SELF], validators: [] }], c);
    expect(lines(s).filter((l) => l.startsWith('avax_validator_expected_active'))).toEqual([
      `avax_validator_expected_active{node_id="${OTHER}",subnet="${P}"} 1`,
      `avax_validator_expected_active{node_id="${SELF}",subnet="${P}"} 1`,
      `avax_validator_expected_active{node_id="${OTHER}",subnet="${SUBNET_L1}"} 0`,
      `avax_validator_expected_active{node_id="${SELF}",subnet="${SUBNET_L1}"} 1`,
    ]);
  });
  it('behavior: duplicate watched IDs give one set of series', () => {
    const s = toSamples([{ subnet: P, watched: [OTHER, OTHER], validators: [] }], {});
    expect(s).toHaveLength(1);
  });
  it.each([
    ['default: unknown Helicon → 0.8', 1790000000n, undefined, 0.8],
    ['behavior: unscheduled → 0.8', 1790000000n, Number.POSITIVE_INFINITY, 0.8],
    ['behavior: started before Helicon → 0.8', 1785000000n, 1785250800, 0.8],
    ['behavior: started at Helicon → 0.9', 1785250800n, 1785250800, 0.9],
    ['behavior: started after Helicon → 0.9', 1790000000n, 1785250800, 0.9],
  ])('uptimeRequirement %s', (_n, start, helicon, want) => {
    expect(uptimeRequirement(start, helicon)).toBe(want);
    expect(uptimeRequirement(start, helicon, true)).toBe(0.9); // auto-renewed: only after Helicon
  });
  it('behavior: heliconFrom', () => {
    expect(heliconFrom(InfoUpgradesResult.parse(result('info.upgrades', 'default')))).toBe(Number.POSITIVE_INFINITY);
    expect(heliconFrom(InfoUpgradesResult.parse(result('info.upgrades', 'helicon-scheduled')))).toBe(1785250800);
    expect(heliconFrom(InfoUpgradesResult.parse({}))).toBe(Number.POSITIVE_INFINITY); // v1.13.x: no heliconTime
  });
  describe('BLS key of the node (issue 7)', () => {
    const own = () => vals('primary-watched')[0]!;
    const key = () => own().signer!.publicKey!;
    it('behavior: BLS key of the node equals the registered signer → 1 (case-insensitive)', () => {
      const s = toSamples([{ subnet: P, watched: [SELF], validators: [own()] }], { ownNodeId: SELF, ownBlsPublicKey: key().toUpperCase().replace('0X', '0x').toLowerCase() });
      expect(valueOf(s, 'avax_validator_bls_key_matches', { node_id: SELF })).toBe(1);
      // The registered key in upper-case hex matches the node's (lower-case) key too.
      const upper = { ...own(), signer: { ...own().signer!, publicKey: key().toUpperCase().replace('0X', '0x') } };
      const t = toSamples([{ subnet: P, watched: [SELF], validators: [upper] }], { ownNodeId: SELF, ownBlsPublicKey: key().toLowerCase() });
      expect(valueOf(t, 'avax_validator_bls_key_matches', { node_id: SELF })).toBe(1);
    });
    it('behavior: a different key, or no signer registered → 0', () => {
      const other = '0x' + 'ab'.repeat(48);
      expect(valueOf(toSamples([{ subnet: P, watched: [SELF], validators: [own()] }], { ownNodeId: SELF, ownBlsPublicKey: other }), 'avax_validator_bls_key_matches')).toBe(0);
      const noSigner = { ...own(), signer: undefined };
      expect(valueOf(toSamples([{ subnet: P, watched: [SELF], validators: [noSigner] }], { ownNodeId: SELF, ownBlsPublicKey: key() }), 'avax_validator_bls_key_matches')).toBe(0);
    });
    it('behavior: no BLS series for other watched IDs, or when the node key is unknown', () => {
      const s = toSamples([{ subnet: P, watched: [SELF], validators: [own()] }], { ownNodeId: OTHER, ownBlsPublicKey: key() });
      expect(valueOf(s, 'avax_validator_bls_key_matches')).toBeUndefined();
      expect(valueOf(toSamples([{ subnet: P, watched: [SELF], validators: [own()] }], { ownNodeId: SELF }), 'avax_validator_bls_key_matches')).toBeUndefined();
    });
  });
});

describe('platform-validators collect', () => {
  const base = () => ({
    'platform.getCurrentValidators': (p: any) => (p.subnetID === SUBNET_L1 ? result('platform.getCurrentValidators', 'l1') : result('platform.getCurrentValidators', 'primary-watched')),
  });
  /** What node-info and info-upgrades published (read through the declared dependency). */
  const own = { nodeId: SELF, blsPublicKey: '' };
  const upgrades = (helicon: number) => ({ times: {}, heliconTime: helicon });

  it('default: reads the own ID from node-info, asks the primary network without subnetID and each subnet with it', async () => {
    const { client, calls } = fakeClient(base());
    const { ctx } = makeCtx(platformValidators, client, { target: { subnets: [SUBNET_L1] }, values: { 'node-info': own } });
    const r = await platformValidators.collect(ctx);
    expect(r.errors).toEqual([]);
    const gcv = calls.map((c) => c.params);
    expect(calls.map((c) => c.method)).toEqual(['platform.getCurrentValidators', 'platform.getCurrentValidators']);
    expect(gcv).toEqual([{ nodeIDs: [SELF] }, { subnetID: SUBNET_L1, nodeIDs: [SELF] }]);
    expect(valueOf(r.samples, 'avax_validator_active', { subnet: P, node_id: SELF })).toBe(1);
    expect(valueOf(r.samples, 'avax_l1_validator_weight', { subnet: SUBNET_L1, node_id: SELF })).toBe(100);
    expect(r.value?.sets.map((x) => x.subnet)).toEqual([P, SUBNET_L1]);
    expect(calls.every((c) => c.signal === ctx.signal)).toBe(true);
    expect(platformValidators.reads).toEqual(['node-info', 'info-upgrades']);
  });
  it('behavior: configured IDs win over the own ID', async () => {
    const { client, calls } = fakeClient(base());
    await platformValidators.collect(makeCtx(platformValidators, client, { target: { validatorNodeIds: [SELF, OTHER] }, values: { 'node-info': { nodeId: 'NodeID-other' } } }).ctx);
    expect(calls[0]!.params).toEqual({ nodeIDs: [SELF, OTHER] });
  });
  it('behavior: --validator.expect-active beside --validator.node-id watches the own ID too, and expects it', async () => {
    const { client, calls } = fakeClient(base());
    const { ctx } = makeCtx(platformValidators, client, { target: { validatorNodeIds: [OTHER], expectActive: true }, values: { 'node-info': own } });
    const r = await platformValidators.collect(ctx);
    expect(calls.find((c) => c.method === 'platform.getCurrentValidators')!.params).toEqual({ nodeIDs: [OTHER, SELF] });
    expect(valueOf(r.samples, 'avax_validator_expected_active', { subnet: P, node_id: SELF })).toBe(1);
    expect(valueOf(r.samples, 'avax_validator_expected_active', { subnet: P, node_id: OTHER })).toBe(1);
    expect(valueOf(r.samples, 'avax_validator_active', { subnet: P, node_id: SELF })).toBe(1);
    // Without the flag, the configured IDs only.
    expect(watchedIds({ name: 'n', reference: false, validatorNodeIds: [OTHER], subnets: [], chains: [] }, SELF)).toEqual([OTHER]);
  });
  it('behavior: Helicon (info-upgrades) before the validation started → 0.9; unknown → 0.8', async () => {
    const { client } = fakeClient(base());
    let r = await platformValidators.collect(makeCtx(platformValidators, client, { values: { 'node-info': own, 'info-upgrades': upgrades(1767225600) } }).ctx);
    expect(valueOf(r.samples, 'avax_validator_uptime_requirement_ratio')).toBe(0.9);
    r = await platformValidators.collect(makeCtx(platformValidators, client, { values: { 'node-info': own } }).ctx);
    expect(r.errors).toEqual([]);
    expect(valueOf(r.samples, 'avax_validator_uptime_requirement_ratio')).toBe(0.8);
  });
  it('behavior: own ID empty (public server) or unknown, nothing configured → nothing to watch, no call, success', async () => {
    for (const values of [{ 'node-info': { nodeId: '' } }, {}]) {
      const { client, calls } = fakeClient(base());
      const r = await platformValidators.collect(makeCtx(platformValidators, client, { values }).ctx);
      expect(r).toEqual({ value: { sets: [] }, samples: [], errors: [] });
      expect(calls).toEqual([]);
    }
  });
  it('error: one subnet fails → its error, the primary network series kept', async () => {
    const { client } = fakeClient({
      ...base(),
      'platform.getCurrentValidators': (p: any) =>
        p.subnetID ? new RpcError('platform.getCurrentValidators', -32000, 'boom') : result('platform.getCurrentValidators', 'primary-watched'),
    });
    const r = await platformValidators.collect(makeCtx(platformValidators, client, { target: { subnets: [SUBNET_L1] }, values: { 'node-info': own } }).ctx);
    expect(r.errors).toHaveLength(1);
    expect(valueOf(r.samples, 'avax_validator_active', { subnet: P, node_id: SELF })).toBe(1);
  });
  it('behavior: collect reads the BLS key node-info published; mismatch after a re-key', async () => {
    const key = vals('primary-watched')[0]!.signer!.publicKey!;
    const { client } = fakeClient({ 'platform.getCurrentValidators': result('platform.getCurrentValidators', 'primary-watched') });
    const match = await platformValidators.collect(makeCtx(platformValidators, client, { values: { 'node-info': { nodeId: SELF, blsPublicKey: key.toLowerCase() } } }).ctx);
    expect(valueOf(match.samples, 'avax_validator_bls_key_matches')).toBe(1);
    const rekeyed = await platformValidators.collect(makeCtx(platformValidators, client, { values: { 'node-info': { nodeId: SELF, blsPublicKey: '0x' + 'ab'.repeat(48) } } }).ctx);
    expect(valueOf(rekeyed.samples, 'avax_validator_bls_key_matches')).toBe(0);
  });
  it('behavior: expected_active: configured IDs 1; the own ID 0, or 1 with --validator.expect-active', async () => {
    const answers = { 'platform.getCurrentValidators': result('platform.getCurrentValidators', 'primary-not-found') };
    const values = { 'node-info': { nodeId: SELF } };
    const own0 = await platformValidators.collect(makeCtx(platformValidators, fakeClient(answers).client, { values }).ctx);
    expect(valueOf(own0.samples, 'avax_validator_expected_active', { node_id: SELF })).toBe(0);
    expect(valueOf(own0.samples, 'avax_validator_active', { node_id: SELF })).toBe(0);
    const own1 = await platformValidators.collect(makeCtx(platformValidators, fakeClient(answers).client, { target: { expectActive: true }, values }).ctx);
    expect(valueOf(own1.samples, 'avax_validator_expected_active', { node_id: SELF })).toBe(1);
    const conf = await platformValidators.collect(makeCtx(platformValidators, fakeClient(answers).client, { target: { validatorNodeIds: [OTHER] }, values }).ctx);
    expect(valueOf(conf.samples, 'avax_validator_expected_active', { node_id: OTHER })).toBe(1);
  });
});

describe('platform-validators: where a watched ID must be active (issue 43: pairs, not the cross product)', () => {
  const SUBNET_B = 'gFkN164b2X6T8iyQCMPmqHfkbcbWNqKgMD4pTHfJZSJHyTT2v';
  const VANTAGE = 'NodeID-C6YjPSfVCoE9msKXoyVzvg3qQasxTJaEA';
  const target = (over: Partial<TargetSpec>): TargetSpec => ({ name: 'n', reference: false, validatorNodeIds: [], subnets: [], chains: [], ...over });
  const pairs = (m: Map<string, Set<string>>) => [...m].flatMap(([id, subnets]) => [...subnets].map((s) => `${id}@${s}`)).sort();
  it('behavior: a node running its L1 and watching two other nodes: its own ID on the primary network and its L1, the others on the primary network only', () => {
    const t = target({ validatorNodeIds: [OTHER, VANTAGE], expectActive: true, subnets: [SUBNET_L1] });
    expect(pairs(expectedSubnets(t, SELF))).toEqual([`${OTHER}@${P}`, `${SELF}@${P}`, `${SELF}@${SUBNET_L1}`, `${VANTAGE}@${P}`].sort());
  });
  it('behavior: the own ID listed among the configured ones keeps its L1s; unknown own ID → every listed ID on the primary network', () => {
    const t = target({ validatorNodeIds: [SELF, OTHER], subnets: [SUBNET_L1] });
    expect(pairs(expectedSubnets(t, SELF))).toEqual([`${OTHER}@${P}`, `${SELF}@${P}`, `${SELF}@${SUBNET_L1}`].sort());
    expect(pairs(expectedSubnets(t, undefined))).toEqual([`${OTHER}@${P}`, `${SELF}@${P}`].sort());
  });
  it('behavior: an ID given with its subnets is expected exactly there (`primary` is the primary network), also the own ID', () => {
    const t = target({ validatorNodeIds: [OTHER, VANTAGE, SELF], subnets: [SUBNET_L1], validatorSubnets: { [OTHER]: ['primary', SUBNET_B], [VANTAGE]: [SUBNET_B], [SELF]: [SUBNET_L1] } });
    expect(pairs(expectedSubnets(t, SELF))).toEqual([`${OTHER}@${P}`, `${OTHER}@${SUBNET_B}`, `${SELF}@${SUBNET_L1}`, `${VANTAGE}@${SUBNET_B}`].sort());
  });
  it('behavior: the own ID watched by default (nothing configured, no expect-active) is expected nowhere', () => {
    expect(pairs(expectedSubnets(target({ subnets: [SUBNET_L1] }), SELF))).toEqual([]);
  });
  it('behavior: collect asks the subnets named for an ID too, and never expects a vantage ID on the L1 of the node watching it', async () => {
    const { client, calls } = fakeClient({ 'platform.getCurrentValidators': () => ({ validators: [] }) });
    const t = { validatorNodeIds: [OTHER, VANTAGE], expectActive: true, subnets: [SUBNET_L1], validatorSubnets: { [VANTAGE]: ['primary', SUBNET_B] } };
    // An L1 found by itself (subnet-chains) is watched too, and expected for nobody.
    const FOUND = '2WwuvKi7DvvPcAZJTyqbGe5C5SMk6Ppbu6cXnMemej4aVTjqn3';
    const r = await platformValidators.collect(makeCtx(platformValidators, client, { target: t, values: { 'node-info': { nodeId: SELF }, 'subnet-chains': { subnets: [FOUND], chains: [], activeValidators: new Map(), l1Stakes: new Map() } satisfies SubnetChainsValue } }).ctx);
    expect(calls.map((c) => (c.params as { subnetID?: string }).subnetID ?? P)).toEqual([P, SUBNET_L1, SUBNET_B, FOUND]);
    expect(platformValidators.requestsPerRun(target(t), {})).toBe(3);
    const expected = r.samples.filter((x) => x.name === 'avax_validator_expected_active' && x.value === 1).map((x) => `${x.labels['node_id']}@${x.labels['subnet']}`);
    // Every watched ID is asked on every watched subnet (4 × 3 series), expected only where it validates.
    expect(r.samples.filter((x) => x.name === 'avax_validator_expected_active')).toHaveLength(12);
    expect(expected.sort()).toEqual([`${OTHER}@${P}`, `${SELF}@${P}`, `${SELF}@${SUBNET_L1}`, `${VANTAGE}@${P}`, `${VANTAGE}@${SUBNET_B}`].sort());
  });
});

describe('platform-validators trackCycles: the cycles of a watched auto-renewed validator (ACP-236)', () => {
  const TX = 'RHa2bsaYbrA2rJdm3zZ2CdEjjAQ7BgG4GHe7gjy9unK6zBUC7';
  const START = 1778000000;
  const LEN = 1209600; // the 14-day cycle of platform.getCurrentValidators/auto-renewed.json
  const W0 = 2_000_000_000_000n;
  const POT = 57_534_246_575n; // its potential reward
  const end = (k: number) => START + (k + 1) * LEN;
  const OTHER_TX = 'QZTN3KLK7b9mqAPjbvE5J1EpYCVE5i9xXSSRBDweph7fmLz7h';
  /** The fixture's auto-renewed entry in cycle `k` (k-th since START), with the given changes. */
  function entryAt(k: number, over: Record<string, string> = {}) {
    const raw = result('platform.getCurrentValidators', 'auto-renewed');
    Object.assign(raw.validators[0], { startTime: String(START + k * LEN), endTime: String(START + (k + 1) * LEN) }, over);
    return PlatformGetCurrentValidatorsResult.parse(raw).validators[0]!;
  }
  const set = (validators: ReturnType<typeof entryAt>[], watched = [SELF]): WatchedSet => ({ subnet: P, watched, validators });
  const fresh = (): CycleMemory => ({ current: new Map(), ends: [] });
  it('default: a renewal (same txID, startTime = the previous endTime) ends the cycle with the next weight; the first weight is kept', () => {
    const m = fresh();
    trackCycles(m, set([entryAt(0)]), START + 100);
    trackCycles(m, set([entryAt(0, { accruedDelegateeReward: '5' })]), end(0) - 10);
    expect(m.ends).toEqual([]);
    trackCycles(m, set([entryAt(1, { weight: String(W0 + 17n) })]), end(0) + 20);
    expect(m.ends).toHaveLength(1);
    expect(m.ends[0]).toMatchObject({ how: 'renewed', weightAfter: W0 + 17n, cycle: { txID: TX, start: START, end: end(0), weight: W0, delegateeReward: 5n, seenAt: end(0) - 10, firstWeight: W0 } });
    expect(m.current.get(SELF)).toMatchObject({ start: end(0), weight: W0 + 17n, firstWeight: W0 });
  });
  it('behavior: a renewal seen after a missed cycle: renewed, without the next weight (the growth spans two cycles)', () => {
    const m = fresh();
    trackCycles(m, set([entryAt(0)]), START + 100);
    trackCycles(m, set([entryAt(2)]), end(1) + 100);
    expect(m.ends).toEqual([{ how: 'renewed', cycle: expect.objectContaining({ end: end(0) }) }]);
  });
  it('behavior: gone after its end → left; gone before its end, or not watched any more → forgotten; a cycle that may have renewed unseen → not judged', () => {
    const left = fresh();
    trackCycles(left, set([entryAt(0)]), START + 100);
    trackCycles(left, set([]), end(0) + 5);
    expect(left.ends.map((e) => e.how)).toEqual(['left']);
    expect(left.current.size).toBe(0);
    const early = fresh();
    trackCycles(early, set([entryAt(0)]), START + 100);
    trackCycles(early, set([]), end(0) - 3600);
    trackCycles(early, set([]), end(0) + 5);
    expect([early.ends, early.current.size]).toEqual([[], 0]);
    const unwatched = fresh();
    trackCycles(unwatched, set([entryAt(0)]), START + 100);
    trackCycles(unwatched, set([], [OTHER]), end(0) + 5);
    expect([unwatched.ends, unwatched.current.size]).toEqual([[], 0]);
    // Last seen with nextPeriod > 0 a whole next cycle ago: it may have renewed and left since.
    const stale = fresh();
    trackCycles(stale, set([entryAt(0)]), START + 100);
    trackCycles(stale, set([]), end(1) + 1);
    expect(stale.ends).toEqual([]);
    // ...but with nextPeriod 0 it left at this cycle's end.
    const leaving = fresh();
    trackCycles(leaving, set([entryAt(0, { nextPeriod: '0' })]), START + 100);
    trackCycles(leaving, set([]), end(1) + 1);
    expect(leaving.ends.map((e) => e.how)).toEqual(['left']);
  });
  it('behavior: a new txID of the node after the end: the old one left; fixed validations are not followed', () => {
    const m = fresh();
    trackCycles(m, set([entryAt(0)]), START + 100);
    trackCycles(m, set([entryAt(1, { txID: OTHER_TX })]), end(0) + 5);
    expect(m.ends.map((e) => [e.how, e.cycle.txID])).toEqual([['left', TX]]);
    expect(m.current.get(SELF)?.txID).toBe(OTHER_TX);
    const fixed = fresh();
    trackCycles(fixed, set([PlatformGetCurrentValidatorsResult.parse(result('platform.getCurrentValidators', 'primary-watched')).validators[0]!]), START);
    expect(fixed.current.size).toBe(0);
  });
  it(`behavior: the last ${CYCLE_ENDS_KEPT} ends per node are kept (bounded), oldest first`, () => {
    const m = fresh();
    for (let k = 0; k <= CYCLE_ENDS_KEPT + 2; k++) trackCycles(m, set([entryAt(k)]), START + k * LEN + 1);
    expect(m.ends.map((e) => e.cycle.end)).toEqual([3, 4, 5, 6].map((k) => START + k * LEN).slice(-CYCLE_ENDS_KEPT));
  });
});
