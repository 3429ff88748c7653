// The primary-network validator set as this node's P-chain has it: the local validators plus the
// sibling nodes of a multi-node simulator, in staker order; getCurrentValidators, total stake,
// txIDs, and the connected share of the stake (chain health networking).
// Part of the simulated avalanchego node, an independent oracle ON PURPOSE: this package shares no
// code with the exporter (src/) and has its own CB58, JSON-RPC envelope and constants, so
// that a bug in the exporter's decoding cannot hide behind the same bug here. Do not "fix" this
// duplication (test/sim/independence.test.ts fails on any import from outside this package).
import { fixed4, sortByJson } from './go-format.js';
import { hf } from './deterministic-random.js';
import type { Scenario } from './scenarios/scenario.js';
import {
  validatorConnected,
  validatorJson,
  validatorPeriod,
  validatorTxId,
  type ValidatorDef,
  type ValidatorRegistryModel,
} from './validator-registry.js';

/** One primary-network validator as this node's P-chain state has it (local validators and siblings). */
export interface PrimaryEntry {
  nodeId: string;
  end: number;
  order: number;
  weight: bigint; // own + delegated (the validator manager's weight)
  connected: boolean;
  self: boolean;
  /** peer key for observedUptime (how that validator sees this node); null for the node itself */
  key: number | null;
  txID: () => string;
  json: (withDelegators: boolean) => Record<string, unknown>;
}

/** This node's own registration, as every node of the network has it (see ownRegistration). */
export interface OwnRegistration {
  nodeId: string;
  end: number;
  weight: bigint;
  txID: string;
  json: (withDelegators: boolean) => Record<string, unknown>;
}

/** A sibling node (multi-node mode) as this file needs it: its seed and its own registration. */
export interface RegisteredSibling {
  readonly seed: number;
  /** whether it is linked to this node depends on both scenarios (NodeModel.linkedTo) */
  readonly active: Scenario;
  ownRegistration(nowS: number): OwnRegistration | null;
}

/**
 * What this file needs of the node model. NodeModel (node-model.ts) satisfies it structurally; this
 * file does not import node-model.ts, so that no import cycle (not even of types) ties the two.
 */
export interface PrimarySetModel extends ValidatorRegistryModel {
  now(): number;
  readonly isValidator: boolean;
  /** the own validator as registered in the current scenario */
  readonly selfNow: ValidatorDef;
  readonly siblings: readonly RegisteredSibling[];
  linkedTo(sib: RegisteredSibling): boolean;
  siblingKey(sib: RegisteredSibling): number;
  /** changes whenever a sibling switches scenario (part of the cache key) */
  siblingsKey(): string;
  /** txIDs (validator-registry) and the full getCurrentValidators of the current second */
  readonly caches: { readonly txId: Map<string, string>; validators: { key: string; json: string } | null };
}

/** What a node answers for one second of its clock, kept per node (see perSecond). */
export type PerSecondCache<M extends object, T> = WeakMap<M, { key: string; value: T }>;

/**
 * `compute()` once per second of the node's clock: kept under the key its validators list has (scenario,
 * second, siblings), so a scenario switch or a sibling's shows at once. For answers a benchmark fleet asks
 * one simulated node for a thousand times a cycle; callers only read the value.
 */
export function perSecond<M extends PrimarySetModel, T>(cache: PerSecondCache<M, T>, m: M, nowS: number, compute: () => T): T {
  const key = `${m.active.name}/${nowS}/${m.siblingsKey()}`;
  const hit = cache.get(m);
  if (hit?.key === key) return hit.value;
  const value = compute();
  cache.set(m, { key, value });
  return value;
}

const ENTRIES: PerSecondCache<PrimarySetModel, readonly PrimaryEntry[]> = new WeakMap();

/** Fixed in every sibling's order after the local validators (ties on end time). */
const SIBLING_ORDER_BASE = 1_000_000_000;

/** Local validators in the current set, sorted like the staker iterator (end time, then tx id). */
function currentValidators(m: PrimarySetModel, nowS: number): ValidatorDef[] {
  const list = m.isValidator ? [...m.others, m.selfNow] : [...m.others];
  const withEnd = list.map((v) => ({ v, end: validatorPeriod(m, v, nowS).end }));
  withEnd.sort((a, b) => a.end - b.end || a.v.idx - b.v.idx);
  return withEnd.map((x) => x.v);
}

/**
 * This node's own primary-network registration as the P-chain has it, the same on every node
 * (txID, times, weights, delegations, signer); connected/uptime are each observer's own view.
 */
export function ownRegistration(m: PrimarySetModel, nowS: number): OwnRegistration | null {
  if (!m.isValidator) return null;
  const v = m.selfNow;
  const p = validatorPeriod(m, v, nowS);
  return { nodeId: v.nodeId, end: p.end, weight: v.own + v.deleg, txID: validatorTxId(m, v, p.k), json: (d) => validatorJson(m, v, nowS, d) };
}

/** How this node sees a sibling validator's uptime (getCurrentValidators `uptime`). */
function siblingUptime(m: PrimarySetModel, sib: RegisteredSibling, nowS: number, linked: boolean): number {
  const r = hf(m.seed, sib.seed, 34);
  const drift = 0.4 * Math.sin(nowS / 5400 + r * 6.28);
  const u = linked ? 99.2 + r * 0.6 + drift : 31 + r * 8 + drift * 5;
  return Math.round(Math.max(0, Math.min(100, u)) * 10000) / 10000;
}

/**
 * The primary-network validator set: local validators plus sibling nodes, in staker order. Computed once
 * per second of the node's clock (uptime, ACPs, upgrade checks and every getCurrentValidators read it: a
 * benchmark fleet asks one simulated node a thousand times a cycle); callers only read it.
 */
export function primaryEntries(m: PrimarySetModel, nowS: number): readonly PrimaryEntry[] {
  return perSecond(ENTRIES, m, nowS, () => computeEntries(m, nowS));
}

function computeEntries(m: PrimarySetModel, nowS: number): PrimaryEntry[] {
  const out: PrimaryEntry[] = currentValidators(m, nowS).map((v) => ({
    nodeId: v.nodeId,
    end: validatorPeriod(m, v, nowS).end,
    order: v.idx,
    weight: v.own + v.deleg,
    connected: validatorConnected(m, v, nowS),
    self: v.idx === -1,
    key: v.idx === -1 ? null : v.idx + 1,
    txID: () => validatorTxId(m, v, validatorPeriod(m, v, nowS).k),
    json: (d: boolean) => validatorJson(m, v, nowS, d),
  }));
  if (m.siblings.length === 0) return out;
  for (const sib of m.siblings) {
    const reg = sib.ownRegistration(nowS);
    if (!reg) continue;
    const linked = m.linkedTo(sib);
    out.push({
      nodeId: reg.nodeId,
      end: reg.end,
      order: SIBLING_ORDER_BASE + sib.seed,
      weight: reg.weight,
      connected: linked,
      self: false,
      key: m.siblingKey(sib),
      txID: () => reg.txID,
      json: (d: boolean) => {
        const j = reg.json(d);
        j['connected'] = linked;
        j['uptime'] = fixed4(siblingUptime(m, sib, nowS, linked));
        return j;
      },
    });
  }
  out.sort((a, b) => a.end - b.end || a.order - b.order);
  return out;
}

/** platform.getCurrentValidators for the primary network, serialized (cached per second). */
export function primaryValidatorsJson(m: PrimarySetModel, nodeIDs: string[] | null): string {
  const nowS = Math.floor(m.now() / 1000);
  if (nodeIDs === null) {
    const key = `${m.active.name}/${nowS}/${m.siblingsKey()}`;
    if (m.caches.validators?.key === key) return m.caches.validators.json;
    const list = primaryEntries(m, nowS).map((e) => e.json(false));
    const json = JSON.stringify({ validators: list });
    m.caches.validators = { key, json };
    return json;
  }
  const want = new Set(nodeIDs);
  const single = nodeIDs.length === 1;
  const list = primaryEntries(m, nowS)
    .filter((e) => want.has(e.nodeId))
    .map((e) => e.json(single));
  return JSON.stringify({ validators: list });
}

export function primaryTotalStake(m: PrimarySetModel): bigint {
  let t = 0n;
  for (const e of primaryEntries(m, Math.floor(m.now() / 1000))) t += e.weight;
  return t;
}

/** Whether `txId` is the AddValidatorTx of a current primary-network validator. */
export function hasValidatorTx(m: PrimarySetModel, txId: string): boolean {
  const nowS = Math.floor(m.now() / 1000);
  for (const e of primaryEntries(m, nowS)) if (e.txID() === txId) return true;
  return false;
}

/** Fraction of primary-network stake this node is connected to, and the disconnected validators. */
export function primaryNetworking(m: PrimarySetModel): { percentConnected: number; disconnected: string[] } {
  const nowS = Math.floor(m.now() / 1000);
  let total = 0n;
  let connected = 0n;
  const disconnected: string[] = [];
  for (const e of primaryEntries(m, nowS)) {
    total += e.weight;
    if (e.connected) connected += e.weight;
    else disconnected.push(e.nodeId);
  }
  const pct = total === 0n ? 1 : Number((connected * 1_000_000_000n) / total) / 1e9;
  return { percentConnected: pct, disconnected: sortByJson(disconnected) };
}
