// The futureupgrade health check of the simulated node (avalanchego v1.14.1+, node/node.go): the
// stake-weighted mode of the upgrade times its connected validator peers announce.
// Part of the simulated avalanchego node, an independent oracle ON PURPOSE: this package shares no
// code with the exporter (src/) and has its own CB58, JSON-RPC envelope and constants, so
// that a bug in the exporter's decoding cannot hide behind the same bug here. Do not "fix" this
// duplication (test/sim/independence.test.ts fails on any import from outside this package).
import { goDuration, rfc3339 } from './go-format.js';
import { DAY } from './mainnet-constants.js';
import type { PeerInfo } from './peers.js';
import { primaryEntries, type PrimarySetModel } from './primary-validator-set.js';

/**
 * What this file needs of the node model. NodeModel (node-model.ts) satisfies it structurally; this
 * file does not import node-model.ts, so that no import cycle (not even of types) ties the two.
 */
export interface FutureUpgradeModel extends PrimarySetModel {
  /** info.peers (connected peers with their announced upgrade times, peers.ts) */
  peers(): PeerInfo[];
  /** the upgrade time this node announces and compares */
  localUpgradeUnix(): number;
}

/**
 * The futureupgrade health check (node/node.go): stake-weighted mode of the upgrade times
 * announced by connected validator peers, against the node's own upgrade time.
 */
export function futureUpgradeCheck(m: FutureUpgradeModel): { message?: Record<string, unknown>; error?: string } {
  const nowMs = m.now();
  const nowS = Math.floor(nowMs / 1000);
  const weights = new Map<string, bigint>();
  let total = 0n;
  for (const e of primaryEntries(m, nowS)) {
    weights.set(e.nodeId, e.weight);
    total += e.weight;
  }
  if (total === 0n) return { error: 'no validators in the current validator set' };
  const times = new Map<number, bigint>();
  let mode = 0;
  let modeW = 0n;
  for (const p of m.peers()) {
    const w = weights.get(p.nodeID);
    if (w === undefined) continue; // PeerInfo(validator IDs): validators only
    const t = p.upgradeTime ?? 0;
    const uw = (times.get(t) ?? 0n) + w;
    times.set(t, uw);
    if (uw > modeW) {
      mode = t;
      modeW = uw;
    }
  }
  const portion = Number(modeW) / Number(total);
  const local = m.localUpgradeUnix();
  const message: Record<string, unknown> = {
    localUpgradeTime: rfc3339(local * 1000),
    modeUpgradeTime: rfc3339(mode * 1000),
    modeUpgradeWeightPercentage: 100 * portion,
    numUpgradeTimes: times.size,
  };
  if (local >= mode || portion < 0.5) return { message };
  const untilMs = mode * 1000 - nowMs;
  message['timeUntilUpgrade'] = goDuration(untilMs * 1_000_000);
  let error: string | undefined;
  if (untilMs > 3 * DAY * 1000) error = undefined;
  else if (untilMs > DAY * 1000) error = 'unknown network upgrade detected';
  else if (untilMs > 3_600_000) error = 'unknown network upgrade detected - update as soon as possible';
  else error = 'imminent network upgrade detected - update immediately';
  return error === undefined ? { message } : { message, error };
}
