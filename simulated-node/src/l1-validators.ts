// The L1 (subnet) the simulated node also validates: its 7 seeded L1 validators, their balances
// draining at the validator fee (every one topped up before 20 days are left, as healthy operators do;
// the last one inactive; low / inactive per scenario), the L1
// chain's block IDs and its chain-health networking. Before Etna (v1.11.7: versions.ts `l1` false)
// there are no L1s: the same subnet is a legacy permissioned one, its validators added by
// AddSubnetValidatorTx (txID, start, end, weight; no balance).
// Part of the simulated avalanchego node, an independent oracle ON PURPOSE: this package shares no
// code with the exporter (src/) and has its own CB58, JSON-RPC envelope and constants, so
// that a bug in the exporter's decoding cannot hide behind the same bug here. Do not "fix" this
// duplication (test/sim/independence.test.ts fails on any import from outside this package).
import { blsPublicKeyHex, cb58Encode, nodeIdFromBytes, pAddress } from './avalanche-ids.js';
import { derivedBytes, h32, hf, Rng } from './deterministic-random.js';
import { fixed4, sortByJson } from './go-format.js';
import { DAY, L1_FEE_PRICE } from './mainnet-constants.js';
import type { NodeHistory } from './own-history.js';
import type { ScenarioModel } from './scenarios/scenario.js';

export interface L1ValidatorDef {
  nodeId: string;
  weight: number;
  startTime: number;
  validationID: string;
  publicKey: string;
  remainingOwner: string;
  deactivationOwner: string;
  minNonce: number;
  initialBalance: bigint; // nAVAX at t0
  self: boolean;
}

/**
 * What this file needs of the node model. NodeModel (node-model.ts) satisfies it structurally; this
 * file does not import node-model.ts, so that no import cycle (not even of types) ties the two.
 */
export interface L1ValidatorsModel extends ScenarioModel {
  /** start of the simulation (unix s) */
  readonly t0s: number;
  readonly nodeId: string;
  readonly l1: readonly L1ValidatorDef[];
  readonly isValidator: boolean;
  /** versions.ts: ACP-77 L1s (else a permissioned subnet), the deprecated stakeAmount */
  readonly profile: ScenarioModel['profile'] & { readonly l1: boolean; readonly stakeAmount: boolean };
  /** L1 validators registered and removed during the run (own-history.ts) */
  readonly history: Pick<NodeHistory, 'l1'>;
}

/** The own L1 validator is topped up (by 60 days of fees) before its runway drops below 20 days. */
const L1_MIN_RUNWAY = 20 * DAY;
const L1_TOP_UP = 60 * DAY;

/** The seeded L1 validators (the third one is this node, with its registered BLS key). */
export function makeL1Validators(seed: number, t0s: number, nodeId: string, nodeBlsPub: string, rng: Rng): L1ValidatorDef[] {
  const out: L1ValidatorDef[] = [];
  const n = 7;
  for (let i = 0; i < n; i++) {
    const self = i === 2;
    const runwayDays = self ? 45 + rng.next() * 75 : 5 + rng.next() * 200;
    const inactive = i === n - 1;
    const owner = pAddress(rng.bytes(20));
    out.push({
      nodeId: self ? nodeId : nodeIdFromBytes(derivedBytes(`l1val/${seed}/${i}`, 20)),
      weight: self ? 100 : [20, 50, 100, 100, 200, 20, 10][i] ?? 20,
      startTime: t0s - 10 * DAY - Math.floor(rng.next() * 200 * DAY),
      validationID: cb58Encode(derivedBytes(`l1vid/${seed}/${i}`, 32)),
      publicKey: self ? nodeBlsPub : blsPublicKeyHex(rng),
      remainingOwner: owner,
      deactivationOwner: owner,
      minNonce: Math.floor(rng.next() * 3),
      initialBalance: inactive ? 0n : BigInt(Math.floor(512 * DAY * runwayDays)),
      self,
    });
  }
  return out;
}

/**
 * The j-th L1 validator registered during the run (RegisterL1ValidatorTx at `atS`): seeded like the others, a
 * weight of 20, 50 or 100 (of the seeded 600), a balance of 30 to 90 days of fees from its registration, topped
 * up like the others.
 */
export function extraL1Validator(seed: number, j: number, atS: number): L1ValidatorDef {
  const rng = new Rng(h32(seed, j, 0x11));
  const owner = pAddress(rng.bytes(20));
  return {
    nodeId: extraNodeId(seed, j),
    weight: [20, 50, 100][h32(seed, j, 0x12) % 3]!,
    startTime: atS,
    validationID: cb58Encode(derivedBytes(`l1xvid/${seed}/${j}`, 32)),
    publicKey: blsPublicKeyHex(rng),
    remainingOwner: owner,
    deactivationOwner: owner,
    minNonce: 0,
    initialBalance: BigInt(Math.floor(L1_FEE_PRICE * DAY * (30 + 60 * hf(seed, j, 0x13)))),
    self: false,
  };
}

const extraNodeId = (seed: number, j: number): string => nodeIdFromBytes(derivedBytes(`l1extra/${seed}/${j}`, 20));

/** A registered validator's node connects to the L1's validators this long after its registration (1 to 10 minutes, seeded). */
export function extraConnectsAfterS(seed: number, j: number): number {
  return 60 + Math.floor(540 * hf(seed, j, 0x14));
}

/** The run's registered validators still in the set at `nowS` (balances from their registration). */
function extras(m: L1ValidatorsModel, nowS: number): { v: L1ValidatorDef; j: number }[] {
  const out: { v: L1ValidatorDef; j: number }[] = [];
  for (const c of m.history.l1) {
    if (c.atS > nowS) break;
    if (c.change === 'register') out.push({ v: extraL1Validator(m.seed, c.extra, c.atS), j: c.extra });
    else {
      const at = out.findIndex((x) => x.j === c.extra);
      if (at >= 0) out.splice(at, 1);
    }
  }
  return out;
}

/** A permissioned subnet validator's AddSubnetValidatorTx: a year from its start. */
const SUBNET_VALIDATION = 365 * DAY;

/** The subnet's validators now (the own one only while the node is a validator), with their balances (L1s only). */
function current(m: L1ValidatorsModel): { v: L1ValidatorDef; balance: bigint | null }[] {
  const nowS = Math.floor(m.now() / 1000);
  const elapsed = Math.max(0, nowS - m.t0s);
  const out: { v: L1ValidatorDef; balance: bigint | null }[] = [];
  m.l1.forEach((v, i) => {
    if (v.self && !m.isValidator) return;
    if (!m.profile.l1) {
      out.push({ v, balance: null });
      return;
    }
    const bal = v.self ? ownL1Balance(m, v, nowS, elapsed) : (m.active.l1?.otherBalance?.(m, i, nowS) ?? toppedUp(v.initialBalance, elapsed));
    out.push({ v, balance: bal < 0n ? 0n : bal });
  });
  if (m.profile.l1) for (const { v } of extras(m, nowS)) out.push({ v, balance: toppedUp(v.initialBalance, nowS - v.startTime) });
  return out;
}

/** Whether this node is connected to the subnet validator `v` (itself always; one registered during the run once its node has connected). */
function connectedTo(m: L1ValidatorsModel, v: L1ValidatorDef): boolean {
  if (v.self) return true;
  if (m.active.l1?.peersConnected === false) return false;
  const j = m.history.l1.find((c) => c.change === 'register' && extraNodeId(m.seed, c.extra) === v.nodeId)?.extra;
  return j === undefined || Math.floor(m.now() / 1000) >= v.startTime + extraConnectsAfterS(m.seed, j);
}

/**
 * platform.getCurrentValidators for the subnet: the L1 validator shape (inactive ones with balance
 * "0"), or before Etna the permissioned shape of avalanchego v1.11's PermissionedValidator (Staker,
 * connected, and the uptime only while the node tracks the subnet).
 */
export function l1Validators(m: L1ValidatorsModel, nodeIDs: string[] | null): Record<string, unknown>[] {
  const want = nodeIDs ? new Set(nodeIDs) : null;
  const out: Record<string, unknown>[] = [];
  for (const { v, balance: bal } of current(m)) {
    if (want && !want.has(v.nodeId)) continue;
    if (bal === null) {
      const i = m.l1.indexOf(v);
      out.push({
        txID: cb58Encode(derivedBytes(`l1addval/${m.seed}/${i}`, 32)),
        startTime: String(v.startTime),
        endTime: String(v.startTime + SUBNET_VALIDATION),
        weight: String(v.weight),
        nodeID: v.nodeId,
        ...(m.profile.stakeAmount ? { stakeAmount: String(v.weight) } : {}),
        connected: connectedTo(m, v),
        ...(m.active.l1?.chain === 'untracked' ? {} : { uptime: fixed4(v.self ? 100 : Math.floor((98 + 2 * hf(m.seed, i, 5)) * 10000) / 10000) }),
      });
      continue;
    }
    out.push({
      nodeID: v.nodeId,
      weight: String(v.weight),
      startTime: String(v.startTime),
      validationID: v.validationID,
      publicKey: v.publicKey,
      remainingBalanceOwner: { locktime: '0', threshold: '1', addresses: [v.remainingOwner] },
      deactivationOwner: { locktime: '0', threshold: '1', addresses: [v.deactivationOwner] },
      minNonce: String(v.minNonce),
      balance: bal.toString(),
    });
  }
  return out;
}

/** The own L1 validator's balance (nAVAX); fees drain L1_FEE_PRICE per second. */
function ownL1Balance(m: L1ValidatorsModel, v: L1ValidatorDef, nowS: number, elapsed: number): bigint {
  // The scenario's balance (l1-fee-low, l1-inactive: listed with "balance":"0").
  const scenario = m.active.l1?.ownBalance;
  if (scenario) return scenario(m, nowS);
  return toppedUp(v.initialBalance, elapsed);
}

/**
 * A balance `elapsed` seconds after the start, draining L1_FEE_PRICE per second and topped up by 60 days of
 * fees before its runway drops below 20 days (every operator of a healthy L1 does); an inactive validator
 * (initial balance 0) stays at 0.
 */
function toppedUp(initial: bigint, elapsed: number): bigint {
  if (initial === 0n) return 0n;
  const price = BigInt(L1_FEE_PRICE);
  let bal = initial - price * BigInt(elapsed);
  const min = price * BigInt(L1_MIN_RUNWAY);
  if (bal < min) {
    const top = price * BigInt(L1_TOP_UP);
    bal += ((min - bal + top - 1n) / top) * top;
  }
  return bal;
}

export function l1BlockId(m: L1ValidatorsModel, height: number): string {
  return cb58Encode(derivedBytes(`l1blk/${m.seed}/${height}`, 32));
}

/** The subnet's validator set (getValidatorsAt): the active L1 validators (balance > 0), or every permissioned one. */
export function l1ValidatorSet(m: L1ValidatorsModel): { nodeId: string; publicKey: string; weight: number }[] {
  return current(m)
    .filter((c) => c.balance !== 0n)
    .map(({ v }) => ({ nodeId: v.nodeId, publicKey: v.publicKey, weight: v.weight }));
}

/** Chain-health networking of the L1 chain (its validator set). */
export function l1Networking(m: L1ValidatorsModel): { disconnectedValidators: string[]; percentConnected: number } {
  let total = 0;
  let connected = 0;
  const disconnected: string[] = [];
  for (const { v, balance } of current(m)) {
    if (balance === 0n) continue; // inactive: not in the active set
    total += v.weight;
    if (connectedTo(m, v)) connected += v.weight;
    else disconnected.push(v.nodeId);
  }
  return { disconnectedValidators: sortByJson(disconnected), percentConnected: total === 0 ? 1 : connected / total };
}

export function l1TotalWeight(m: L1ValidatorsModel): bigint {
  let t = 0n;
  for (const { v } of current(m)) t += BigInt(v.weight);
  return t;
}
