// info.uptime of the simulated node: how its peers see its uptime (observedUptime, per scenario),
// aggregated over the stake as avalanchego's network.NodeUptime does, and the error of a
// non-validator (with and without sybil protection).
// Part of the simulated avalanchego node, an independent oracle ON PURPOSE: this package shares no
// code with the exporter (src/) and has its own CB58, JSON-RPC envelope and constants, so
// that a bug in the exporter's decoding cannot hide behind the same bug here. Do not "fix" this
// duplication (test/sim/independence.test.ts fails on any import from outside this package).
import { isAutoRenewed } from './auto-renew.js';
import { hf } from './deterministic-random.js';
import { primaryEntries, type PrimarySetModel } from './primary-validator-set.js';
import type { ScenarioModel } from './scenarios/scenario.js';
import { ownRegistrations, peerBackAt, stakeOrderPos, validatorPeriod, type StakeOrderModel } from './validator-registry.js';

// What this file needs of the node model. NodeModel (node-model.ts) satisfies these interfaces
// structurally; this file does not import node-model.ts, so that no import cycle ties the two.

/** What observedUptime needs (peers.ts calls it too). */
export interface ObservedUptimeModel extends StakeOrderModel, ScenarioModel {}

/** What info.uptime needs: the primary validator set and how peers see this node. */
export interface UptimeModel extends PrimarySetModel, ObservedUptimeModel {
  readonly profile: PrimarySetModel['profile'];
  /** --sybil-protection-enabled */
  readonly sybilProtection: boolean;
  /** the start of the simulation and the last (re)start of the node's process (ms) */
  readonly t0: number;
  readonly processStartMs: number;
  readonly processRestarts: number;
}

/** avalanchego's PingFrequency (utils/constants/networking.go: 3/4 of the 30 s ping-pong timeout). */
const PING_FREQUENCY_S = 22.5;

/**
 * When a peer first reports this node's uptime after `sinceS` (unix s): a second to connect (or to see the
 * registration accepted), then its Ping ticker's phase since the connection, seeded, up to one PingFrequency.
 */
export function firstReportS(seed: number, key: number, sinceS: number): number {
  return sinceS + 1 + PING_FREQUENCY_S * hf(seed, key, sinceS, 52);
}

/**
 * Since when the peers' reports of this node start over (unix s): the last restart of its process during the
 * run (every connection is new: a peer's report comes with its first Ping), or the start of its current
 * validation (an auto-renewed validator: of its registration), before which a peer does not count the node as
 * a validator and reports 0. Not a cycle boundary of an auto-renewed validator: the node keeps each peer's
 * last report until its next Ping (recorded: test/fixtures/real-node-helicon).
 */
function reportsSinceS(m: UptimeModel, nowS: number): number {
  const process = m.processRestarts > 0 ? Math.floor(m.processStartMs / 1000) : -Infinity;
  const own = isAutoRenewed(m.seed, m.profile.autoRenewedStakers, m.selfNow, nowS)
    ? (ownRegistrations(m, m.active.validators?.rewardOutcome, nowS).at(-1)?.cycles[0]?.start ?? -Infinity)
    : validatorPeriod(m, m.selfNow, nowS).start;
  return Math.max(process, own);
}

/**
 * info.uptime as avalanchego computes it from its peers' observed uptimes (network.NodeUptime: the own stake at
 * 100 %, each connected validator at its last report); null for a non-validator. A peer that has not reported
 * since the node's restart, its validation's start or its own restart (reportsSinceS, peerBackAt) adds nothing:
 * the first answers after those are the own stake share alone, then grow as the reports arrive.
 */
export function nodeUptime(m: UptimeModel): { rewarding: number; weighted: number } | null {
  if (!m.isValidator) return null;
  const nowS = Math.floor(m.now() / 1000);
  const list = primaryEntries(m, nowS);
  let totalW = 0n;
  for (const e of list) totalW += e.weight;
  const total = Number(totalW);
  const my = Number(m.selfNow.own + m.selfNow.deleg);
  let weighted = 100 * my;
  let rewarding = my;
  const since = reportsSinceS(m, nowS);
  for (const e of list) {
    if (e.self || !e.connected || e.key === null) continue;
    const back = e.key <= m.others.length ? peerBackAt(m, e.key - 1, nowS) : undefined;
    if (nowS < firstReportS(m.seed, e.key, Math.max(since, back ?? -Infinity))) continue;
    const w = Number(e.weight);
    const obs = observedUptime(m, e.key, nowS);
    weighted += obs * w;
    if (obs / 100 >= 0.8) rewarding += w;
  }
  return { weighted: Math.abs(weighted / total), rewarding: Math.abs((100 * rewarding) / total) };
}

/**
 * The info.uptime error of a node that is not a primary-network validator (nodeUptime() === null).
 * api/info/service.go Info.Uptime wraps the error of network.NodeUptime() as
 * "couldn't get node uptime: %w". With sybil protection on (mainnet, Fuji), network/network.go
 * NodeUptime returns errNotValidator ("node is not a validator") because
 * Validators.GetWeight(PrimaryNetworkID, MyNodeID) is 0. With sybil protection off (local and
 * test networks) that weight check does not stop it (without sybil protection the node does
 * not take its validator manager from the P-chain stakers) and the failure comes from the
 * uptime calculator: snow/uptime/manager.go CalculateUptimePercent -> state.GetStartTime(nodeID)
 * returns database.ErrNotFound ("not found") for a node the P-chain has no staker for, wrapped
 * as "error while fetching local validator start time %w". The wrapping site was not found in
 * the searchable avalanchego source; the text is the one a real v1.14.2 node answers (issue 11).
 */
export function uptimeError(m: UptimeModel): string {
  return m.sybilProtection
    ? "couldn't get node uptime: node is not a validator"
    : "couldn't get node uptime: error while fetching local validator start time not found";
}

/** How peer `key` sees this node's uptime (integer 0-100; a peer's observedUptime). */
export function observedUptime(m: ObservedUptimeModel, key: number, nowS: number): number {
  const r = hf(m.seed, key, 51);
  const drift = Math.sin(nowS / 3600 + r * 6.28);
  let u: number;
  const scenario = m.active.observedUptime;
  if (scenario) {
    // The scenario's view (low-uptime, rewards-lost, validator-disconnected).
    const validatorPos = key >= 1 && key <= m.others.length ? (m.stakePos[key - 1] as number) : null;
    u = scenario(m, { key, r, drift, validatorPos, orderPos: stakeOrderPos(m, key) });
  } else {
    u = r < 0.97 ? 98 + r * 2.2 + drift * 0.5 : 88 + r * 8;
  }
  return Math.max(0, Math.min(100, Math.floor(u)));
}
