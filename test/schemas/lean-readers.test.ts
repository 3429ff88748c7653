// The lean readers of the big answers (platform.getCurrentValidators, info.peers,
// platform.getBlockchains) against their zod schemas, on every fixture and every real-node recording:
// both accept with the same used data, or both reject. Then what they report, and what they ignore.
import { readdirSync } from 'node:fs';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { InfoPeersResult, type InfoPeersUsed } from '../../src/schemas/info.js';
import type { PlatformGetBlockchainsResult } from '../../src/schemas/platform-chains.js';
import { PlatformGetCurrentValidatorsLean, PlatformGetCurrentValidatorsResult, type PlatformValidator, type PlatformValidatorUsed } from '../../src/schemas/platform.js';
import { InfoPeersLean } from '../../src/schemas/info.js';
import type { AnswerSchema } from '../../src/node-client/call.js';
import type { LeanReader } from '../../src/schemas/lean.js';
import { PlatformGetBlockchainsLean } from '../../src/schemas/platform-chains.js';
import { CALLS } from '../../src/collectors/index.js';
import { fixtureNames, result } from '../fixtures/load.js';
import { LEAN, both, everySingleChange, expectAgreement } from '../helpers/lean-agreement.js';
import { REAL_NODE_DIR, recordedExchange } from '../helpers/recorded-node.js';

/** The SchemaError text of the node client (client.ts validate): the first 3 issues as `path: message`. */
function rendered(r: { success: boolean; error?: { issues: readonly { path: readonly PropertyKey[]; message: string }[] } }): string {
  return (r.error?.issues ?? [])
    .slice(0, 3)
    .map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
    .join('; ');
}

/** Parsed JSON, or undefined (the err-* recordings hold malformed requests and non-JSON answers). */
function jsonOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

describe('lean readers agree with the zod schemas', () => {
  it('default: every method a declared call reads with a lean reader (not zod) is held to its zod schema here', () => {
    const lean = CALLS.map(({ call }) => call).filter((c) => c.kind !== 'text' && !('_zod' in c.result));
    expect([...new Set(lean.map((c) => c.method))].sort()).toEqual(Object.keys(LEAN).sort());
    for (const c of lean) expect(c.kind !== 'text' && c.result, c.method).toBe(LEAN[c.method]!.lean);
  });

  for (const method of Object.keys(LEAN)) {
    it.each(fixtureNames(method))(`default: ${method}/%s: both accept, with the same used data`, (name) => {
      expect(expectAgreement(method, result(method, name), `${method}/${name}`)).toBe(true);
    });
  }

  it.each(Object.keys(LEAN))('behavior: %s: every fixture with one used value, container or map key changed to each edge value: same verdict, same data', (method) => {
    const changes = everySingleChange(method, fixtureNames(method), (c) => result(method, c));
    let accepted = 0;
    for (const { site, answer } of changes) if (expectAgreement(method, answer, site)) accepted++;
    // Both verdicts occur (a check where everything is rejected proves little).
    expect(accepted).toBeGreaterThan(changes.length / 20);
    expect(accepted).toBeLessThan(changes.length);
  });

  it('default: every real-node v1.14.2 recording of these methods (the error answers have no result)', () => {
    const seen: string[] = [];
    for (const file of readdirSync(REAL_NODE_DIR).filter((f) => f.endsWith('.json'))) {
      const ex = recordedExchange(file);
      const method = (jsonOrUndefined(ex.request.body ?? '') as { method?: unknown } | undefined)?.method;
      if (typeof method !== 'string' || !(method in LEAN)) continue;
      const body = jsonOrUndefined(ex.body) as { result?: unknown } | undefined;
      if (body === undefined || !('result' in body)) continue;
      expect(expectAgreement(method, body.result, file), file).toBe(true);
      seen.push(file);
    }
    expect(seen.sort()).toEqual([
      'info.peers.json',
      'platform.getCurrentValidators-all.json',
      'platform.getCurrentValidators-own-with-peer.json',
      'platform.getCurrentValidators-own.json',
      'platform.getCurrentValidators-primary-subnetID.json',
      'platform.getCurrentValidators-unknown-id.json',
    ]);
  });

  it('default: the used data of a real validator entry (recording platform.getCurrentValidators-own.json)', () => {
    const ex = recordedExchange('platform.getCurrentValidators-own.json');
    const r = PlatformGetCurrentValidatorsLean.safeParse((JSON.parse(ex.body) as { result: unknown }).result);
    expect(r.success).toBe(true);
    const v = r.success ? r.data.validators[0]! : undefined;
    expect(v?.nodeID).toBe('NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg');
    expect(v?.weight).toBeTypeOf('bigint');
    expect(v?.signer?.publicKey).toMatch(/^0x[0-9a-f]{96}$/);
    expect(v?.rewardOwnerAddresses).toEqual([expect.stringMatching(/^P-local1/)]);
    expect(v?.accruedDelegateeReward).toBe(0n);
    // Not read: the unused fields are not in the output.
    expect(Object.keys(v ?? {})).not.toContain('delegationRewardOwner');
    expect(Object.keys(v ?? {})).not.toContain('delegators');
    expect(Object.keys(v?.signer ?? {})).toEqual(['publicKey']);
  });
});

describe('lean readers: what they reject, and how it reads', () => {
  it('default: a wrong used field is an issue naming its path (the SchemaError message family)', () => {
    const answer = result('platform.getCurrentValidators', 'primary-full');
    answer.validators[3].weight = 'abc';
    answer.validators[1].connected = 'yes';
    const r = PlatformGetCurrentValidatorsLean.safeParse(answer);
    expect(rendered(r)).toBe('validators.1.connected: expected a boolean, got "yes"; validators.3.weight: expected a u64 decimal string, got "abc"');
    expect(PlatformGetCurrentValidatorsResult.safeParse(answer).success).toBe(false);
  });

  it.each([
    ['platform.getCurrentValidators', { validators: {} }, 'validators: expected an array, got an object'],
    ['platform.getCurrentValidators', [], '(root): expected an object, got an array'],
    ['platform.getCurrentValidators', { validators: [{ nodeID: 'NodeID-x' }] }, 'validators.0.nodeID: invalid NodeID "NodeID-x": not CB58 or bad checksum'],
    ['platform.getCurrentValidators', { validators: [{}] }, 'validators.0.nodeID: expected a NodeID string, got nothing'],
    ['info.peers', { numPeers: '1', peers: [{ nodeID: 'NodeID-JYqs9fvaqfAU1BGS6PwYs887YMLCtn3J3', version: null }] }, 'peers.0.version: expected a string, got null'],
    ['info.peers', { numPeers: '-1', peers: [] }, 'numPeers: expected a small unsigned integer, got "-1"'],
    ['info.peers', { numPeers: '1', peers: [{ nodeID: 'NodeID-JYqs9fvaqfAU1BGS6PwYs887YMLCtn3J3', supportedACPs: [23, 4294967296] }] }, 'peers.0.supportedACPs.1: expected an ACP number (uint32), got 4294967296'],
    ['platform.getBlockchains', { blockchains: [{ id: 'x', subnetID: 'y', vmID: 'z' }] }, 'blockchains.0.id: invalid CB58 ID "x": not CB58 or bad checksum'],
  ])('default: %s %j → %s (zod rejects it too)', (method, answer, message) => {
    const { zod, lean } = both(method, answer);
    expect(zod.success).toBe(false);
    expect(rendered(lean).split('; ')[0]).toBe(message);
  });

  it('behavior: a megabyte-long ID is rejected (its length is checked before any base58 decoding)', () => {
    const long = `NodeID-${'x'.repeat(1_000_000)}`;
    expect(PlatformGetCurrentValidatorsLean.safeParse({ validators: [{ nodeID: long, txID: long.slice(7) }] }).success).toBe(false);
    expect(InfoPeersLean.safeParse({ numPeers: '1', peers: [{ nodeID: long, version: 'v', trackedSubnets: [long.slice(7)] }] }).success).toBe(false);
  });
});

describe('lean readers: what they ignore (the zod schemas reject these; nothing the exporter reads is wrong)', () => {
  it('default: unknown fields and wrong UNUSED fields leave the used data as it was', () => {
    const clean = result('platform.getCurrentValidators', 'primary-full');
    const dirty = result('platform.getCurrentValidators', 'primary-full');
    dirty.validators[0].delegationRewardOwner = 'not an owner';
    dirty.validators[0].delegators = 'not a list';
    dirty.validators[0].signer.proofOfPossession = 42;
    dirty.validators[0].minNonce = -1;
    dirty.validators[0].somethingNew = { nested: [1, 2] };
    dirty.newTopLevel = true;
    expect(PlatformGetCurrentValidatorsResult.safeParse(dirty).success).toBe(false);
    const a = PlatformGetCurrentValidatorsLean.safeParse(clean);
    const b = PlatformGetCurrentValidatorsLean.safeParse(dirty);
    expect(b.success).toBe(true);
    expect(b.success && b.data).toEqual(a.success && a.data);

    const peers = result('info.peers', 'default');
    Object.assign(peers.peers[0], { ip: 42, publicIP: null, upgradeTime: 'soon', lastSent: 'yesterday' });
    expect(both('info.peers', peers).zod.success).toBe(false);
    expect(InfoPeersLean.safeParse(peers)).toEqual(InfoPeersLean.safeParse(result('info.peers', 'default')));
  });
});

describe('lean readers: output types', () => {
  it('default: the peers and blockchains readers give the schemas\' own types; a full PlatformValidator is a PlatformValidatorUsed', () => {
    type Out<R> = R extends LeanReader<infer T> ? T : never;
    expectTypeOf<InfoPeersUsed>().toExtend<InfoPeersResult>();
    expectTypeOf<Out<typeof InfoPeersLean>>().toExtend<InfoPeersResult>();
    expectTypeOf<Out<typeof PlatformGetBlockchainsLean>>().toEqualTypeOf<PlatformGetBlockchainsResult>();
    // Consumers typed with PlatformValidatorUsed take both the zod output and the lean output.
    expectTypeOf<PlatformValidator>().toExtend<PlatformValidatorUsed>();
    expectTypeOf<PlatformGetCurrentValidatorsResult['validators'][number]>().toExtend<PlatformValidatorUsed>();
  });

  it('default: a caller generic in T (the node client) infers T exactly from a zod schema and from a lean reader', () => {
    const rpc = <T>(schema: AnswerSchema<T>): T => {
      const r = schema.safeParse(result('info.peers', 'default'));
      if (!r.success) throw new Error('rejected');
      return r.data;
    };
    expectTypeOf(rpc(InfoPeersResult)).toEqualTypeOf<InfoPeersResult>();
    expectTypeOf(rpc(PlatformGetCurrentValidatorsResult)).toEqualTypeOf<PlatformGetCurrentValidatorsResult>();
    expectTypeOf(rpc(InfoPeersLean)).toEqualTypeOf<InfoPeersUsed>();
    expect(rpc(InfoPeersLean)).toEqual(LEAN['info.peers']!.project(rpc(InfoPeersResult)));
  });
});
