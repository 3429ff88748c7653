import { z } from 'zod';
import { CB58Id, HexBytes, NodeId, Percentage, Rfc3339Seconds, SmallInt, nullableArray } from './primitives.js';

/**
 * Info API (`POST /ext/info`), AVALANCHEGO.md §4 (avalanchego v1.14.2). Objects strip unknown
 * fields (never strict): new releases add fields.
 */

/** info.getNodeID. The wire spelling is `proofOfPossession`; service.md has `proofOfPosession`. */
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

/**
 * One peer of info.peers. `observedUptime` is how THAT peer sees OUR node (string, 0–100).
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
});
export type InfoPeer = z.output<typeof InfoPeer>;

/** info.peers: `numPeers` is a string; `peers` is [] when empty (null tolerated). */
export const InfoPeersResult = z.object({
  numPeers: SmallInt,
  peers: nullableArray(InfoPeer),
});
export type InfoPeersResult = z.output<typeof InfoPeersResult>;

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
 * info.upgrades: a flat object of RFC3339 upgrade times plus a few numbers. Only `heliconTime` is
 * used (ACP-267 uptime requirement); `9999-12-01T00:00:00Z` means unscheduled. Older nodes lack it.
 */
export const InfoUpgradesResult = z.object({
  heliconTime: Rfc3339Seconds.optional(),
  graniteTime: Rfc3339Seconds.optional(),
});
export type InfoUpgradesResult = z.output<typeof InfoUpgradesResult>;
