import { z } from 'zod';
import { acpNumber, leanReader, list, nodeId, objectItem, percent, requiredCb58Id, requiredObject, requiredSmallInt, requiredString, rfc3339, string, type Walk } from './lean.js';
import { CB58Id, HexBytes, NodeId, Percentage, Rfc3339Seconds, SmallInt, U64, nullableArray, parseRfc3339 } from './primitives.js';

/**
 * Info API (`POST /ext/info`), docs/avalanchego-wire.md §4 (avalanchego v1.14.2). Objects strip unknown
 * fields (never strict): new releases add fields.
 */

/** info.getNodeID. The wire spelling is `proofOfPossession`; avalanchego api/info/service.md has `proofOfPosession`. */
export const InfoGetNodeIDResult = z.object({
  nodeID: NodeId,
  nodePOP: z
    .object({
      publicKey: HexBytes.optional(),
      proofOfPossession: HexBytes.optional(),
      proofOfPosession: HexBytes.optional(),
    })
    .nullish()
    .transform((p) =>
      p ? { publicKey: p.publicKey, proofOfPossession: p.proofOfPossession ?? p.proofOfPosession } : undefined,
    ),
});
export type InfoGetNodeIDResult = z.output<typeof InfoGetNodeIDResult>;

/** info.getNodeVersion. rpcProtocolVersion is a string ("45"); the spec allows a number. */
export const InfoGetNodeVersionResult = z.object({
  version: z.string(),
  databaseVersion: z.string().default(''),
  // "" when built without ldflags.
  gitCommit: z.string().default(''),
  rpcProtocolVersion: z
    .union([z.string(), z.number()])
    .transform((v) => String(v))
    .default(''),
  vmVersions: z.record(z.string(), z.string()).nullish().transform((v) => v ?? {}),
});
export type InfoGetNodeVersionResult = z.output<typeof InfoGetNodeVersionResult>;

/** info.getNetworkID: `{"networkID":"1"}` (string on the wire, "int" in the spec). */
export const InfoGetNetworkIDResult = z.object({ networkID: SmallInt });
export type InfoGetNetworkIDResult = z.output<typeof InfoGetNetworkIDResult>;

/** info.getNetworkName: mainnet, fuji, local or network-<id>. */
export const InfoGetNetworkNameResult = z.object({ networkName: z.string() });
export type InfoGetNetworkNameResult = z.output<typeof InfoGetNetworkNameResult>;

/** info.isBootstrapped {chain}. */
export const InfoIsBootstrappedResult = z.object({ isBootstrapped: z.boolean() });
export type InfoIsBootstrappedResult = z.output<typeof InfoIsBootstrappedResult>;

/** An ACP number: uint32 (JSON number; a decimal string is tolerated). */
export const AcpNumber = z.union([z.number(), z.string().regex(/^\d{1,10}$/).transform(Number)]).pipe(z.number().int().min(0).max(4294967295));

/**
 * One peer of info.peers. `observedUptime` is how THAT peer sees OUR node (string, 0–100; "0" from a
 * peer that cannot compute it: not a validator, bootstrapping, no stake). `trackedSubnets` of a real
 * peer always lists the primary network ID first.
 * `upgradeTime` (number) since v1.14.1; `observedSubnetUptimes` removed in v1.11.12 (stripped).
 */
export const InfoPeer = z.object({
  ip: z.string().optional(),
  publicIP: z.string().optional(),
  nodeID: NodeId,
  version: z.string().default(''),
  upgradeTime: z.number().optional(),
  lastSent: Rfc3339Seconds.optional(),
  lastReceived: Rfc3339Seconds.optional(),
  observedUptime: Percentage.optional(),
  trackedSubnets: nullableArray(CB58Id),
  benched: nullableArray(z.string()),
  /** ACP numbers (uint32 sets, since v1.10.18) this peer supports / objects to. */
  supportedACPs: nullableArray(AcpNumber),
  objectedACPs: nullableArray(AcpNumber),
});
export type InfoPeer = z.output<typeof InfoPeer>;

/** info.peers: `numPeers` is a string; `peers` is [] when empty (null tolerated). */
export const InfoPeersResult = z.object({
  numPeers: SmallInt,
  peers: nullableArray(InfoPeer),
});
export type InfoPeersResult = z.output<typeof InfoPeersResult>;

/**
 * The fields of a peer the exporter reads (info-peers: counts, versions, benched, tracked subnets,
 * observed uptime, silence, per-peer series, ACP stances). Not read: ip, publicIP, upgradeTime,
 * lastSent. Every InfoPeer is one of these, and each of these is an InfoPeer (the others are optional).
 */
export type InfoPeerUsed = Pick<InfoPeer, 'nodeID' | 'version' | 'lastReceived' | 'observedUptime' | 'trackedSubnets' | 'benched' | 'supportedACPs' | 'objectedACPs'>;

export interface InfoPeersUsed {
  numPeers: number;
  peers: InfoPeerUsed[];
}

function readAcp(w: Walk, v: unknown, i: number): number | undefined {
  return acpNumber(w, v, i);
}

function readSubnet(w: Walk, v: unknown, i: number): string | undefined {
  return requiredCb58Id(w, v, i);
}

function readBenched(w: Walk, v: unknown, i: number): string | undefined {
  return requiredString(w, v, i);
}

const readPeer = objectItem(
  (w, o): InfoPeerUsed => ({
    nodeID: nodeId(w, o['nodeID'], 'nodeID') as string,
    version: string(w, o['version'], 'version') ?? '',
    lastReceived: rfc3339(w, o['lastReceived'], 'lastReceived'),
    observedUptime: percent(w, o['observedUptime'], 'observedUptime'),
    trackedSubnets: list(w, o['trackedSubnets'], 'trackedSubnets', readSubnet),
    benched: list(w, o['benched'], 'benched', readBenched),
    supportedACPs: list(w, o['supportedACPs'], 'supportedACPs', readAcp),
    objectedACPs: list(w, o['objectedACPs'], 'objectedACPs', readAcp),
  }),
);

/**
 * Lean reader of info.peers: numPeers and the used fields of each peer (InfoPeerUsed), validated
 * like InfoPeersResult; the rest of the 0.6 MB mainnet answer is not looked at.
 */
export const InfoPeersLean = leanReader((w, v): InfoPeersUsed => {
  const o = requiredObject(w, v, undefined);
  if (o === undefined) return { numPeers: 0, peers: [] };
  return { numPeers: requiredSmallInt(w, o['numPeers'], 'numPeers') as number, peers: list(w, o['peers'], 'peers', readPeer) };
});

/**
 * info.uptime: strings with 4 decimals, 0–100. Non-validators get the RPC error
 * `couldn't get node uptime: node is not a validator`.
 */
export const InfoUptimeResult = z.object({
  rewardingStakePercentage: Percentage,
  weightedAveragePercentage: Percentage,
});
export type InfoUptimeResult = z.output<typeof InfoUptimeResult>;

/**
 * Most upgrade times info.upgrades may carry; more is not an upgrade list. v1.14.2 has 15 (apricotPhase1-5,
 * apricotPhasePre6, apricotPhase6, apricotPhasePost6, banff, cortina, durango, etna, fortuna, granite,
 * helicon) beside three non-time members (apricotPhase4MinPChainHeight, cortinaXChainStopVertexID,
 * graniteEpochDuration); v1.13.x has no helicon and no graniteEpochDuration.
 */
export const MAX_UPGRADES = 64;
const UPGRADE_KEY = /^([A-Za-z][A-Za-z0-9]{0,40})Time$/;
/**
 * Placeholder names an upgrade had before it was named, → its name, so that one upgrade keeps one name
 * whatever the node's version: v1.12.x answers `fUpgradeTime` (real v1.12.2 node), v1.13.0 named it Fortuna
 * (`fortunaTime`; avalanchego PR 3761 "Name F-Upgrade Fortuna").
 */
const UPGRADE_ALIAS: ReadonlyMap<string, string> = new Map([['fUpgrade', 'fortuna']]);

/**
 * info.upgrades (absent on v1.11.7, present on v1.12.2): a flat object of RFC3339 upgrade times (`apricotPhase1Time` … `graniteTime`,
 * `heliconTime`) plus a few numbers (`apricotPhase4MinPChainHeight`, `graniteEpochDuration` in ns)
 * and IDs (`cortinaXChainStopVertexID`). `9999-12-01T00:00:00Z` means unscheduled. Every `<name>Time`
 * member must be an RFC3339 string; `times` maps `<name>` to Unix seconds (`fUpgrade` as `fortuna`).
 * Other members are ignored.
 */
export const InfoUpgradesResult = z
  .record(z.string(), z.unknown())
  .transform((o, ctx) => {
    const times: Record<string, number> = {};
    let n = 0;
    for (const [key, value] of Object.entries(o)) {
      const m = UPGRADE_KEY.exec(key);
      if (!m) continue;
      if (++n > MAX_UPGRADES) {
        ctx.addIssue({ code: 'custom', message: `expected at most ${MAX_UPGRADES} upgrade times, got more` });
        return z.NEVER;
      }
      const parsed = typeof value === 'string' ? parseRfc3339(value) : `expected an RFC3339 string, got ${value === null ? 'null' : typeof value}`;
      if (typeof parsed === 'string') {
        ctx.addIssue({ code: 'custom', path: [key], message: parsed });
        return z.NEVER;
      }
      const alias = UPGRADE_ALIAS.get(m[1]!);
      // The named member wins over a placeholder for the same upgrade (both never seen together).
      if (alias === undefined) times[m[1]!] = parsed;
      else if (times[alias] === undefined) times[alias] = parsed;
    }
    return { times, heliconTime: times['helicon'], graniteTime: times['granite'] };
  });
export type InfoUpgradesResult = z.output<typeof InfoUpgradesResult>;

/** Most open proposals info.acps may list (v1.14.2: none). */
export const MAX_ACPS = 64;

/**
 * info.acps: `{"acps":{"<num>":{"supportWeight":"…","supporters":[…],"objectWeight":"…","objectors":[…],"abstainWeight":"…"}}}`.
 * Weights are P-chain weights (nAVAX of primary-network stake), decimal strings on the wire. The
 * supporter/objector NodeID lists are not used (stripped): they only name peers, never the node itself.
 */
export const InfoAcp = z.object({ supportWeight: U64, objectWeight: U64, abstainWeight: U64 });
export const InfoAcpsResult = z.object({
  acps: z
    .record(z.string().regex(/^\d{1,10}$/, 'expected an ACP number'), InfoAcp)
    .nullish()
    .transform((v) => v ?? {})
    .check((ctx) => {
      if (Object.keys(ctx.value).length > MAX_ACPS) ctx.issues.push({ code: 'custom', input: ctx.value, message: `expected at most ${MAX_ACPS} proposals` });
    }),
});
export type InfoAcpsResult = z.output<typeof InfoAcpsResult>;

/**
 * info.getNodeIP: `{"ip":"198.51.100.23:9651"}`, the node's believed public ip:port (docs/avalanchego-wire.md §4;
 * node-specific: absent on public API servers). Kept as a string: an IPv6 address comes bracketed.
 */
export const InfoGetNodeIPResult = z.object({ ip: z.string().max(64) });
export type InfoGetNodeIPResult = z.output<typeof InfoGetNodeIPResult>;

/**
 * info.getVMs: `{"vms":{vmID:[aliases]},"fxs":{fxID:name}}` (docs/avalanchego-wire.md §4; the docs example omits
 * `fxs`, which is stripped). The VM plugins the node has registered, built-in ones included.
 */
export const InfoGetVMsResult = z.object({
  vms: z.record(CB58Id, nullableArray(z.string())).nullish().transform((v) => v ?? {}),
});
export type InfoGetVMsResult = z.output<typeof InfoGetVMsResult>;
