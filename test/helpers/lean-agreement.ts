/**
 * The lean readers (src/schemas/lean.ts) against their zod schemas: which fields each reader uses
 * (stated here independently of the readers, as a tree), what "the same used data" means (the zod
 * output cut down to those fields), and mutations of only the used or only the unused fields.
 */
import fc from 'fast-check';
import { expect } from 'vitest';
import type { z } from 'zod';
import { schemaOfMethod } from '../../src/collectors/index.js';
import type { AnswerSchema } from '../../src/node-client/call.js';
import { InfoPeersResult, type InfoPeer } from '../../src/schemas/info.js';
import { PlatformGetBlockchainsResult } from '../../src/schemas/platform-chains.js';
import { PlatformGetCurrentValidatorsResult, type PlatformValidator } from '../../src/schemas/platform.js';
import { mutated, nastyNumber, nastyString, nastyValue } from './answer-mutations.js';

/**
 * The used part of an answer: `leaf` = a used value; `obj` = a used object whose listed members are
 * used (any other member is not read); `arr` = a used array (Go's null for nil accepted); `rec` = a used
 * map whose KEYS are used, each value as given. Anything not in the tree is unused.
 */
export type Used = 'leaf' | { readonly obj: Readonly<Record<string, Used>> } | { readonly arr: Used } | { readonly rec: Used };

const VALIDATOR: Used = {
  obj: {
    nodeID: 'leaf',
    txID: 'leaf',
    startTime: 'leaf',
    endTime: 'leaf',
    weight: 'leaf',
    stakeAmount: 'leaf',
    potentialReward: 'leaf',
    accruedDelegateeReward: 'leaf',
    delegationFee: 'leaf',
    uptime: 'leaf',
    connected: 'leaf',
    delegatorCount: 'leaf',
    delegatorWeight: 'leaf',
    validationID: 'leaf',
    balance: 'leaf',
    nextPeriod: 'leaf',
    period: 'leaf',
    autoCompoundRewardShares: 'leaf',
    validatorAuthority: { obj: { threshold: 'leaf', addresses: { arr: 'leaf' } } },
    signer: { obj: { publicKey: 'leaf' } },
    validationRewardOwner: { obj: { addresses: { arr: 'leaf' } } },
  },
};

const PEER: Used = {
  obj: {
    nodeID: 'leaf',
    version: 'leaf',
    lastReceived: 'leaf',
    observedUptime: 'leaf',
    trackedSubnets: { arr: 'leaf' },
    benched: { arr: 'leaf' },
    supportedACPs: { arr: 'leaf' },
    objectedACPs: { arr: 'leaf' },
  },
};

const BLOCKCHAIN: Used = { obj: { id: 'leaf', name: 'leaf', subnetID: 'leaf', vmID: 'leaf' } };

export interface LeanCase {
  /** The reference: the full zod schema of the answer. */
  readonly zod: z.ZodType;
  /** The lean reader the exporter reads the answer with (its declared calls', collectors/index.ts schemaOfMethod). */
  readonly lean: AnswerSchema<unknown>;
  readonly used: Used;
  /** The zod output cut down to the used fields: what the lean reader must give. */
  readonly project: (zodOutput: any) => unknown;
}

const pickValidator = (v: PlatformValidator) => ({
  nodeID: v.nodeID,
  txID: v.txID,
  startTime: v.startTime,
  endTime: v.endTime,
  weight: v.weight,
  potentialReward: v.potentialReward,
  accruedDelegateeReward: v.accruedDelegateeReward,
  delegationFee: v.delegationFee,
  uptime: v.uptime,
  connected: v.connected,
  delegatorCount: v.delegatorCount,
  delegatorWeight: v.delegatorWeight,
  validationID: v.validationID,
  balance: v.balance,
  signer: v.signer == null ? v.signer : { publicKey: v.signer.publicKey },
  rewardOwnerAddresses: v.rewardOwnerAddresses,
  nextPeriod: v.nextPeriod,
  autoCompoundRewardShares: v.autoCompoundRewardShares,
  authority: v.authority,
});

const pickPeer = (p: InfoPeer) => ({
  nodeID: p.nodeID,
  version: p.version,
  lastReceived: p.lastReceived,
  observedUptime: p.observedUptime,
  trackedSubnets: p.trackedSubnets,
  benched: p.benched,
  supportedACPs: p.supportedACPs,
  objectedACPs: p.objectedACPs,
});

/**
 * Every lean reader, by the fixture folder (method) it reads: the reader is the calls' own; the zod
 * schema it is held to, the fields it uses and the zod output cut down to them are stated here (the one
 * table of full zod schemas the tests want besides the calls': for every other method the calls read
 * with zod itself). test/schemas/lean-readers.test.ts checks that every method read by a lean reader is here.
 */
export const LEAN: Readonly<Record<string, LeanCase>> = {
  'platform.getCurrentValidators': {
    zod: PlatformGetCurrentValidatorsResult,
    lean: schemaOfMethod('platform.getCurrentValidators')!,
    used: { obj: { validators: { arr: VALIDATOR } } },
    project: (r: PlatformGetCurrentValidatorsResult) => ({ validators: r.validators.map(pickValidator) }),
  },
  'info.peers': {
    zod: InfoPeersResult,
    lean: schemaOfMethod('info.peers')!,
    used: { obj: { numPeers: 'leaf', peers: { arr: PEER } } },
    project: (r: InfoPeersResult) => ({ numPeers: r.numPeers, peers: r.peers.map(pickPeer) }),
  },
  'platform.getBlockchains': {
    zod: PlatformGetBlockchainsResult,
    lean: schemaOfMethod('platform.getBlockchains')!,
    used: { obj: { blockchains: { arr: BLOCKCHAIN } } },
    project: (r: PlatformGetBlockchainsResult) => r,
  },
};

/** Both readers on one answer. */
export function both(method: string, answer: unknown) {
  const c = LEAN[method]!;
  return { zod: c.zod.safeParse(answer), lean: c.lean.safeParse(answer), c };
}

/** The data of an accepted lean result (fails the test, with the first issues, when it was rejected). */
export function leanData(r: ReturnType<AnswerSchema<unknown>['safeParse']>, what = ''): unknown {
  if (!r.success) expect.fail(`${what} lean reader rejected: ${r.error.issues.slice(0, 3).map((i) => `${i.path.map(String).join('.')}: ${i.message}`).join('; ')}`);
  return r.data;
}

/** The lean reader and the zod schema both accept with the same used data, or both reject. Returns whether they accepted. */
export function expectAgreement(method: string, answer: unknown, what = method): boolean {
  const { zod, lean, c } = both(method, answer);
  const zodSays = zod.success ? 'accepts' : `rejects (${zod.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ').slice(0, 300)})`;
  const leanSays = lean.success ? 'accepts' : `rejects (${lean.error.issues.map((i) => `${i.path.map(String).join('.')}: ${i.message}`).join('; ').slice(0, 300)})`;
  expect(leanSays.startsWith('accepts'), `${what}: zod ${zodSays}, lean ${leanSays}`).toBe(zod.success);
  if (zod.success && lean.success) expect(lean.data, what).toEqual(c.project(zod.data));
  return zod.success;
}

// ---------------------------------------------------------------------------------------------
// Mutations of the used or the unused part only.

const DROP = Symbol('drop');
type Mode = 'used' | 'unused';
const w = <T>(weight: number, arbitrary: fc.Arbitrary<T>) => ({ weight, arbitrary });

/** A used leaf as a node might get it wrong: retyped, replaced, extended, null (`rate` against 100 kept). */
function leafMutation(v: unknown, rate: number): fc.Arbitrary<unknown> {
  const retyped = typeof v === 'number' ? String(v) : typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : v;
  return fc.oneof(
    w(100, fc.constant(v)),
    w(3 * rate, nastyValue),
    w(2 * rate, nastyString),
    w(2 * rate, nastyNumber),
    w(rate, fc.constant(null)),
    w(2 * rate, fc.constant(retyped)),
    w(rate, typeof v === 'string' ? nastyString.map((n) => v + n) : fc.constant(v)),
  );
}

/** A whole subtree replaced or broken (an unused member: anything goes). */
const anything = (v: unknown) => fc.oneof(w(2, nastyValue), w(1, fc.constant(null)), w(2, mutated(v, { leaf: 25, field: 20, array: 20 })));

function setMember(out: Record<string, unknown>, k: string, v: unknown): void {
  Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
}

/** null, or now and then (`rate` against 100) a value of `a`. */
const sometimes = <T>(a: fc.Arbitrary<T>, rate: number): fc.Arbitrary<T | null> => fc.oneof(w(100, fc.constant(null)), w(rate, a));

/**
 * `v` with only its `mode` part mutated (`used` = the nodes of the tree, `unused` = everything else),
 * each node of that part with weight `rate` against 100 kept.
 */
export function mutatePart(v: unknown, used: Used | undefined, mode: Mode, rate: number, depth = 0): fc.Arbitrary<unknown> {
  const keep = fc.constant(v);
  if (rate === 0 || depth > 8) return keep;
  if (used === undefined) return mode === 'unused' ? fc.oneof(w(100, keep), w(3 * rate, anything(v))) : keep;
  if (used === 'leaf') return mode === 'used' ? leafMutation(v, rate) : keep;
  const whole = (a: fc.Arbitrary<unknown>) => (mode === 'used' ? fc.oneof(w(100, a), w(rate, nastyValue), w(rate, fc.constant(null))) : a);
  if ('arr' in used) {
    if (!Array.isArray(v)) return whole(keep);
    const elems = fc.tuple(...v.map((x) => mutatePart(x, used.arr, mode, rate, depth + 1)));
    if (mode === 'unused') return elems;
    return fc.oneof(w(100, elems), w(rate, elems.chain((a) => fc.subarray(a))), w(rate, elems.map((a) => [...a, ...a])), w(rate, nastyValue), w(rate, fc.constant(null)));
  }
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return whole(keep);
  const entries = Object.entries(v);
  if ('rec' in used) {
    // Keys are used: in the used mode they are renamed, dropped or added; the values follow `used.rec`.
    const fields = entries.map(([k, x]) => {
      const value = mutatePart(x, used.rec, mode, rate, depth + 1);
      const key = mode === 'used' ? fc.oneof(w(100, fc.constant<string | typeof DROP>(k)), w(rate, nastyString), w(rate, fc.constant(DROP))) : fc.constant(k);
      return fc.tuple(key, value);
    });
    const extra = mode === 'used' ? sometimes(fc.tuple(nastyString, fc.oneof(fc.constant({}), fc.constant(null), nastyValue)), rate) : fc.constant(null);
    const obj = fc.tuple(fc.tuple(...fields), extra).map(([fs, x]) => {
      const out: Record<string, unknown> = {};
      for (const [k, val] of [...fs, ...(x ? [x] : [])]) if (k !== DROP) setMember(out, k as string, val);
      return out;
    });
    return whole(obj);
  }
  // An object with used members (used.obj) and unused ones (all the others).
  const members = used.obj;
  const fields = entries.map(([k, x]) => {
    const part = Object.hasOwn(members, k) ? members[k] : undefined;
    const mine = (part !== undefined) === (mode === 'used');
    const value = mutatePart(x, part, mode, rate, depth + 1);
    return fc.tuple(fc.constant(k), mine ? fc.oneof(w(100, value), w(rate, fc.constant(DROP))) : value);
  });
  // Used members that are absent get a value now and then; unused ones are added (unknown fields).
  const absent = Object.keys(members).filter((k) => !Object.hasOwn(v, k));
  const extra =
    mode === 'used'
      ? absent.length > 0
        ? sometimes(fc.tuple(fc.constantFrom(...absent), nastyValue), rate)
        : fc.constant(null)
      : sometimes(fc.tuple(nastyString.filter((k) => !Object.hasOwn(members, k)), nastyValue), 3 * rate);
  const obj = fc.tuple(fc.tuple(...fields), extra).map(([fs, x]) => {
    const out: Record<string, unknown> = {};
    for (const [k, val] of [...fs, ...(x ? [x] : [])]) if (val !== DROP) setMember(out, k, val);
    return out;
  });
  return whole(obj);
}

/** Mutation weights (against 100 kept) per node of the mutated part: answers broken in one place as well as everywhere. */
const RATES = [1, 2, 5, 10, 30] as const;

/** An answer of `method` (one of its fixtures) with only the `mode` part mutated, through JSON as on the wire. */
export function mutatedPart(method: string, cases: readonly string[], load: (c: string) => unknown, mode: Mode): fc.Arbitrary<{ original: unknown; answer: unknown }> {
  const used = LEAN[method]!.used;
  return fc.tuple(fc.constantFrom(...cases), fc.constantFrom(...RATES)).chain(([c, rate]) => {
    const original = load(c);
    return mutatePart(original, used, mode, rate).map((x) => ({ original, answer: x === undefined ? null : JSON.parse(JSON.stringify(x)) }));
  });
}

// ---------------------------------------------------------------------------------------------
// One used place changed: every used value, container, map key and absent used member of an answer
// is a site; one site gets one change. Much sharper than the rate-based mutations above, where one
// rejected field hides whether another change was judged the same by both readers.

type Path = readonly (string | number)[];
interface Site {
  readonly path: Path;
  /** leaf/container: replace or drop; absent: add; key: rename or drop the map entry. */
  readonly kind: 'leaf' | 'array' | 'object' | 'absent' | 'key';
}

function sites(v: unknown, used: Used, path: Path, out: Site[]): Site[] {
  if (used === 'leaf') {
    out.push({ path, kind: 'leaf' });
    return out;
  }
  if ('arr' in used) {
    out.push({ path, kind: Array.isArray(v) ? 'array' : 'leaf' });
    if (Array.isArray(v)) v.forEach((x, i) => sites(x, used.arr, [...path, i], out));
    return out;
  }
  out.push({ path, kind: v !== null && typeof v === 'object' && !Array.isArray(v) ? 'object' : 'leaf' });
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return out;
  const o = v as Record<string, unknown>;
  if ('rec' in used) {
    for (const k of Object.keys(o)) {
      out.push({ path: [...path, k], kind: 'key' });
      sites(o[k], used.rec, [...path, k], out);
    }
    return out;
  }
  for (const [k, part] of Object.entries(used.obj)) {
    if (Object.hasOwn(o, k)) sites(o[k], part, [...path, k], out);
    else out.push({ path: [...path, k], kind: 'absent' });
  }
  return out;
}

function at(root: unknown, path: Path): unknown {
  let x = root;
  for (const k of path) x = (x as Record<string | number, unknown>)[k];
  return x;
}

/** The change of one site: a new value, DROP, or for a key a new name (or DROP). */
function change(site: Site, v: unknown): fc.Arbitrary<unknown> {
  const retyped = typeof v === 'number' ? String(v) : typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : v;
  switch (site.kind) {
    case 'key':
      return fc.oneof(nastyString, fc.constant(DROP), fc.constant('NodeID-JYqs9fvaqfAU1BGS6PwYs887YMLCtn3J3'));
    case 'absent':
      return nastyValue;
    case 'array':
      return fc.oneof(nastyValue, fc.constant(null), fc.constant(DROP), fc.subarray(v as unknown[]), fc.constant([...(v as unknown[]), ...(v as unknown[])]));
    case 'object':
      return fc.oneof(nastyValue, fc.constant(null), fc.constant(DROP), fc.constant([]));
    case 'leaf':
      return fc.oneof(nastyValue, nastyNumber, nastyString, fc.constant(null), fc.constant(DROP), fc.constant(retyped), typeof v === 'string' ? nastyString.map((n) => v + n) : fc.constant(v));
  }
}

function applied(original: unknown, site: Site, to: unknown): unknown {
  const copy = JSON.parse(JSON.stringify(original)) as unknown;
  if (site.path.length === 0) return to === DROP ? null : to;
  const parent = at(copy, site.path.slice(0, -1)) as Record<string | number, unknown>;
  const k = site.path[site.path.length - 1]!;
  if (Array.isArray(parent)) {
    if (to === DROP) parent.splice(k as number, 1);
    else parent[k as number] = to;
  } else if (site.kind === 'key') {
    const value = parent[k];
    delete parent[k];
    if (to !== DROP) setMember(parent, to as string, value);
  } else if (to === DROP) delete parent[k];
  else setMember(parent, k as string, to);
  return JSON.parse(JSON.stringify(copy)) as unknown;
}

/** An answer of `method` (one of its fixtures) with exactly one used site changed, through JSON. */
export function mutatedOnce(method: string, cases: readonly string[], load: (c: string) => unknown): fc.Arbitrary<{ site: string; answer: unknown }> {
  const used = LEAN[method]!.used;
  return fc.constantFrom(...cases).chain((c) => {
    const original = load(c);
    const all = sites(original, used, [], []);
    return fc.constantFrom(...all).chain((site) =>
      change(site, at(original, site.path)).map((to) => ({ site: `${c}: ${site.kind} ${site.path.join('.')}`, answer: applied(original, site, to) })),
    );
  });
}

/** Replacement values of the exhaustive single-site check: every wire type, and the edges of every primitive. */
export const EDGE_VALUES: readonly unknown[] = [
  DROP, null, true, false, 0, -0, 1, -1, 1.5, 2 ** 32, 2 ** 53 + 2, 2 ** 64, 1e21, '', ' 1', '1', '01', '00000000001', '-1', '1.5', '1e3', '99.9103', '1e999',
  '4294967295', '4294967296', '18446744073709551615', '18446744073709551616', '0x', '0x0', '0xab', '0xAB12', '2026-05-14T09:21:31Z', '2026-02-30T00:00:00Z',
  '11111111111111111111111111111111LpoYY', 'NodeID-JYqs9fvaqfAU1BGS6PwYs887YMLCtn3J3', 'NodeID-', 'x'.repeat(128), 'x'.repeat(129), 'x'.repeat(256), 'x'.repeat(257), '__proto__', [], {}, ['a'], [1], [null], { a: 1 },
];

/** Every answer that differs from a fixture of `method` in exactly one used site, by one of EDGE_VALUES (map keys: renamed or dropped). */
export function everySingleChange(method: string, cases: readonly string[], load: (c: string) => unknown): { site: string; answer: unknown }[] {
  const used = LEAN[method]!.used;
  const out: { site: string; answer: unknown }[] = [];
  for (const c of cases) {
    const original = load(c);
    for (const site of sites(original, used, [], [])) {
      const values = site.kind === 'key' ? EDGE_VALUES.filter((x) => x === DROP || typeof x === 'string') : site.kind === 'absent' ? EDGE_VALUES.filter((x) => x !== DROP) : EDGE_VALUES;
      for (const to of values) out.push({ site: `${c}: ${site.path.join('.')} ${site.kind === 'key' ? 'renamed to' : '='} ${to === DROP ? '(dropped)' : JSON.stringify(to)?.slice(0, 40)}`, answer: applied(original, site, to) });
    }
  }
  return out;
}
