import { describe, expect, it } from 'vitest';
import { infoAcps, toSamples as acpSamples } from '../../src/collectors/info-acps.js';
import { peerAcps } from '../../src/collectors/info-peers.js';
import { infoUpgrades, toSamples as upgradeSamples } from '../../src/collectors/info-upgrades.js';
import { platformValidatorFee, toSamples as feeSamples } from '../../src/collectors/platform-validator-fee.js';
import { platformValidators, toSamples as validatorSamples } from '../../src/collectors/platform-validators.js';
import { HttpError, RpcError, TimeoutError } from '../../src/node-client/index.js';
import { PRIMARY_NETWORK_ID } from '../../src/avalanche.js';
import { InfoAcpsResult, InfoPeersResult, InfoUpgradesResult } from '../../src/schemas/info.js';
import { PlatformGetCurrentValidatorsResult, PlatformGetValidatorFeeStateResult } from '../../src/schemas/platform.js';
import { result } from '../fixtures/load.js';
import { assertContract, fakeClient, lines, makeCtx, valueOf } from './fake.js';

const SELF = 'NodeID-LDRTivJGhE6iCWtfByTZHR6yj7q3cNkXv';
const OTHER = 'NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg';
const P = PRIMARY_NETWORK_ID;
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
  it('behavior: collect publishes Helicon for platform-validators (its value)', async () => {
    const { client } = fakeClient({ 'info.upgrades': result('info.upgrades', 'helicon-scheduled') });
    const r = await infoUpgrades.collect(makeCtx(infoUpgrades, client).ctx);
    expect(r.errors).toEqual([]);
    expect(r.value?.heliconTime).toBe(1785250800);
    expect(r.value?.times['granite']).toBe(1763568000);
  });
  it('error: a timeout fails the collector, no series', async () => {
    const { client } = fakeClient({ 'info.upgrades': new TimeoutError('info.upgrades', 5000) });
    expect((await infoUpgrades.collect(makeCtx(infoUpgrades, client).ctx)).errors.map((e) => e.name)).toEqual(['TimeoutError']);
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
    const { ctx, lines: log } = makeCtx(infoAcps, client);
    expect(await infoAcps.collect(ctx)).toEqual({ value: { open: [] }, samples: [], errors: [] });
    await infoAcps.collect(ctx);
    expect(log.filter((l) => l.level === 'info')).toHaveLength(1);
  });
  it('behavior: collect publishes the open proposals for the node-vote series; a failure publishes nothing', async () => {
    let answer: unknown = result('info.acps', 'open');
    const { client } = fakeClient({ 'info.acps': () => answer });
    const { ctx } = makeCtx(infoAcps, client);
    expect((await infoAcps.collect(ctx)).value?.open).toEqual([236, 247]);
    answer = new TimeoutError('info.acps', 5000);
    const r = await infoAcps.collect(ctx);
    expect(r.errors).toHaveLength(1);
    expect(r.value).toBeUndefined();
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
    expect(await platformValidatorFee.collect(makeCtx(platformValidatorFee, client).ctx)).toEqual({ samples: [], errors: [] });
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
  it('behavior: collect reads the BLS key node-info published; mismatch after a re-key', async () => {
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

describe('info-peers ACP stances (issue 7)', () => {
  it('behavior: peers\' ACP stances are kept by NodeID (first entry wins)', () => {
    const v = InfoPeersResult.parse(result('info.peers', 'default'));
    const m = peerAcps(v.peers);
    expect(m.size).toBe(new Set(v.peers.map((p) => p.nodeID)).size);
    expect(m.get('NodeID-JYqs9fvaqfAU1BGS6PwYs887YMLCtn3J3')!.supported).toContain(226);
  });
});
