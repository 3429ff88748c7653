// The L1 (subnet) the simulated node also validates: its 7 seeded L1 validators, their balances
// draining at the validator fee (the own one topped up, or low / inactive per scenario), the L1
// chain's block IDs and its chain-health networking.
// Part of the simulated avalanchego node, an independent oracle ON PURPOSE: src/sim shares no code
// with the exporter (src/ outside src/sim) and has its own CB58, JSON-RPC envelope and constants, so
// that a bug in the exporter's decoding cannot hide behind the same bug here. Do not "fix" this
// duplication (test/sim/independence.test.ts fails on any import from outside src/sim).
import { blsPublicKeyHex, cb58Encode, nodeIdFromBytes, pAddress } from './avalanche-ids.js';
import { derivedBytes, type Rng } from './deterministic-random.js';
import { sortByJson } from './go-format.js';
import { DAY, L1_FEE_PRICE } from './mainnet-constants.js';
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

/** platform.getCurrentValidators for the L1 (L1 validator shape; inactive ones with balance "0"). */
export function l1Validators(m: L1ValidatorsModel, nodeIDs: string[] | null): Record<string, unknown>[] {
  const nowS = Math.floor(m.now() / 1000);
  const elapsed = Math.max(0, nowS - m.t0s);
  const want = nodeIDs ? new Set(nodeIDs) : null;
  const out: Record<string, unknown>[] = [];
  for (const v of m.l1) {
    if (v.self && !m.isValidator) continue;
    if (want && !want.has(v.nodeId)) continue;
    let bal = v.self ? ownL1Balance(m, v, nowS, elapsed) : v.initialBalance - BigInt(L1_FEE_PRICE) * BigInt(elapsed);
    if (bal < 0n) bal = 0n;
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
  const price = BigInt(L1_FEE_PRICE);
  let bal = v.initialBalance - price * BigInt(elapsed);
  // Topped up by 60 days of fees before the runway drops below 20 days.
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

/** Chain-health networking of the L1 chain (active L1 validators only). */
export function l1Networking(m: L1ValidatorsModel): { disconnectedValidators: string[]; percentConnected: number } {
  let total = 0;
  let connected = 0;
  const disconnected: string[] = [];
  for (const v of l1Validators(m, null)) {
    if (v['balance'] === '0') continue; // inactive: not in the active set
    const w = Number(v['weight']);
    total += w;
    const self = v['nodeID'] === m.nodeId;
    if (self || m.active.l1?.peersConnected !== false) connected += w;
    else disconnected.push(v['nodeID'] as string);
  }
  return { disconnectedValidators: sortByJson(disconnected), percentConnected: total === 0 ? 1 : connected / total };
}

export function l1TotalWeight(m: L1ValidatorsModel): bigint {
  let t = 0n;
  for (const v of l1Validators(m, null)) t += BigInt(v['weight'] as string);
  return t;
}
