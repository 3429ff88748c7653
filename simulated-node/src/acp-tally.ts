// info.acps of the simulated node, tallied like avalanchego's Info.Acps over the connected
// validator peers' ACP sets (weights as platform.getValidatorsAt).
// Part of the simulated avalanchego node, an independent oracle ON PURPOSE: this package shares no
// code with the exporter (src/) and has its own CB58, JSON-RPC envelope and constants, so
// that a bug in the exporter's decoding cannot hide behind the same bug here. Do not "fix" this
// duplication (test/sim/independence.test.ts fails on any import from outside this package).
import { sortByJson } from './go-format.js';
import type { PeerInfo } from './peers.js';
import { perSecond, primaryEntries, type PerSecondCache, type PrimarySetModel } from './primary-validator-set.js';

export interface AcpTally {
  supportWeight: string;
  supporters: string[];
  objectWeight: string;
  objectors: string[];
  abstainWeight: string;
}

/**
 * What this file needs of the node model. NodeModel (node-model.ts) satisfies it structurally; this
 * file does not import node-model.ts, so that no import cycle (not even of types) ties the two.
 */
export interface AcpTallyModel extends PrimarySetModel {
  /** info.peers (connected peers, peers.ts) */
  peers(): PeerInfo[];
  /** constants.CurrentACPs of this node */
  currentAcps(): number[];
}

interface Acc {
  sw: bigint;
  sup: string[];
  ow: bigint;
  obj: string[];
  abstain: boolean;
}

/**
 * info.acps like avalanchego's Info.Acps: every connected peer with primary-network weight
 * (validator manager weight = own stake + delegations, as getValidatorsAt) is added to the
 * supporters / objectors of the ACPs in its sets with its weight; every ACP of CurrentACPs gets
 * abstainWeight = total weight - support - object. The node itself is never counted (not a peer).
 */
export function acpTally(m: AcpTallyModel): Record<string, AcpTally> {
  const nowS = Math.floor(m.now() / 1000);
  return perSecond(TALLIES, m, nowS, () => tally(m, nowS)); // once per second, like the peers it tallies
}

const TALLIES: PerSecondCache<AcpTallyModel, Record<string, AcpTally>> = new WeakMap();

function tally(m: AcpTallyModel, nowS: number): Record<string, AcpTally> {
  const weights = new Map<string, bigint>();
  let total = 0n;
  for (const e of primaryEntries(m, nowS)) {
    weights.set(e.nodeId, e.weight);
    total += e.weight;
  }
  const acc = new Map<number, Acc>();
  const get = (n: number): Acc => {
    let t = acc.get(n);
    if (!t) {
      t = { sw: 0n, sup: [], ow: 0n, obj: [], abstain: false };
      acc.set(n, t);
    }
    return t;
  };
  for (const p of m.peers()) {
    const w = weights.get(p.nodeID) ?? 0n;
    if (w === 0n) continue;
    for (const n of p.supportedACPs) {
      const t = get(n);
      t.sup.push(p.nodeID);
      t.sw += w;
    }
    for (const n of p.objectedACPs) {
      const t = get(n);
      t.obj.push(p.nodeID);
      t.ow += w;
    }
  }
  for (const n of m.currentAcps()) get(n).abstain = true;
  const out: Record<string, AcpTally> = {};
  // encoding/json writes map keys sorted as strings.
  for (const n of [...acc.keys()].map(String).sort()) {
    const t = acc.get(Number(n)) as Acc;
    out[n] = {
      supportWeight: t.sw.toString(),
      supporters: sortByJson(t.sup),
      objectWeight: t.ow.toString(),
      objectors: sortByJson(t.obj),
      abstainWeight: (t.abstain ? total - t.sw - t.ow : 0n).toString(),
    };
  }
  return out;
}
