// The avalanchego versions the simulated node can be, and everything that differs between them,
// in one table: a later version (v1.15) is one more entry.
// Part of the simulated avalanchego node, an independent oracle ON PURPOSE: this package shares no
// code with the exporter (src/) and has its own CB58, JSON-RPC envelope and constants, so
// that a bug in the exporter's decoding cannot hide behind the same bug here. Do not "fix" this
// duplication (test/sim/independence.test.ts fails on any import from outside this package).


/**
 * Oldest first. Each is shaped after real nodes' recorded answers (test/fixtures/real-node-v*; v1.13.5 after a
 * real node's answers recorded in the issue) and the release's source. v1.15.0: a real v1.15.0 node with Helicon
 * active (test/fixtures/real-node-v1.15.0) and v1.15.0's source (upgrade/upgrade.go, utils/constants/acps.go,
 * vms/saevm, vms/transitionvm).
 */
export const SIM_VERSIONS = ['1.11.7', '1.12.2', '1.13.5', '1.14.2', '1.15.0'] as const;
export type SimVersion = (typeof SIM_VERSIONS)[number];
export const DEFAULT_SIM_VERSION: SimVersion = '1.15.0';

export function isSimVersion(v: unknown): v is SimVersion {
  return typeof v === 'string' && (SIM_VERSIONS as readonly string[]).includes(v);
}

/** `9999-12-01T00:00:00Z`: upgrade.UnscheduledActivationTime, an upgrade not scheduled yet. */
export const UNSCHEDULED = '9999-12-01T00:00:00Z';
/** Mainnet activation times (upgrade.Mainnet), unix seconds. */
export const DURANGO_UNIX = 1709740800; // 2024-03-06T16:00:00Z
export const ETNA_UNIX = 1734368400; // 2024-12-16T17:00:00Z
export const FORTUNA_UNIX = 1744124400; // 2025-04-08T15:00:00Z
export const GRANITE_UNIX = 1763568000; // 2025-11-19T16:00:00Z
/**
 * Helicon on mainnet (upgrade.Mainnet in v1.15.0: 11 AM ET on Tuesday 2026-09-22; v1.14.2 leaves it unscheduled).
 * A simulated 1.15.0 node (a mainnet node) has it scheduled before that time and active from it: auto-renewed
 * validators (auto-renew.ts) and the C-Chain's switch to SAE (SAE_TRANSITION_UNIX) follow the clock.
 */
export const HELICON_UNIX = 1790089200; // 2026-09-22T15:00:00Z
export const HELICON_RFC3339 = '2026-09-22T15:00:00Z';
/**
 * The C-Chain's switch from Coreth to SAE (ACP-194): the node's TransitionVM swaps the VMs at the first block at or
 * after Helicon − 10 s (vms/transitionvm README: `TransitionTime: HeliconTime.Add(-10 * time.Second)`).
 */
export const SAE_TRANSITION_UNIX = HELICON_UNIX - 10;
/** ACP-176 (dynamic EVM gas limit and price discovery), activated on mainnet with Fortuna. */
export const ACP_176 = 176;
/** v1.15.0's constants.ScheduledACPs: Helicon's ACPs (194 SAE, 236 auto-renewed staking, 267, 273, 283, 285). */
export const HELICON_ACPS: readonly number[] = [194, 236, 267, 273, 283, 285];
/** v1.15.0's constants.CurrentACPs: the scheduled ones and 224, 247 (implementable, in no upgrade). */
const V115_CURRENT_ACPS: readonly number[] = [194, 224, 236, 247, 267, 273, 283, 285];

/** What GET /ext/metrics looks like in a version (ext-metrics.ts). */
export interface MetricsShape {
  /** v1.11.8+: component namespace + `chain` label; v1.11.6–v1.11.7: the chain alias in the name */
  naming: 'v1.11.8' | 'v1.11.6';
  /** `reason` values of avalanche_snowman_poll_count (v1.11.9+; v1.14.2 merged the two early-alpha ones) */
  pollReasons: readonly string[];
  /** avalanche_snowman_consensus_latencies (a histogram the v1.12.2 capture does not have) */
  consensusLatencies: boolean;
  /** coreth's avalanche_evm_eth_chain_head_* gauges (not in the v1.11.7 and v1.12.2 captures) */
  ethChainHead: boolean;
}

export interface VersionProfile {
  version: SimVersion;
  /** info.getNodeVersion, in Go field order */
  nodeVersion: {
    version: string;
    databaseVersion: string;
    /** version.RPCChainVMProtocol: 45 for v1.14.2, 44 for v1.14.0/1, 43 for v1.13.4/5, 39 for v1.12.2, 35 for v1.11.7 */
    rpcProtocolVersion: string;
    gitCommit: string;
    vmVersions: { avm: string; evm: string; platform: string };
  };
  /**
   * info.upgrades (upgrade.Config, mainnet) in Go field order, without the next upgrade; that one
   * (`nextUpgrade`) comes last: unscheduled, or switch + 3 d in upgrade-pending. null: the node has no
   * info.upgrades (before v1.11.11: `rpc: can't find method "info.Upgrades"`).
   */
  upgrades: ReadonlyArray<readonly [string, string | number]> | null;
  nextUpgrade: 'heliconTime' | 'graniteTime' | 'fUpgradeTime' | null;
  /** the upgrade time the node runs with until the next one is scheduled (announced to v1.14.1+ peers) */
  currentUpgradeUnix: number;
  /** constants.CurrentACPs: the ACPs this node keeps in its peers' sets and lists in info.acps */
  currentAcps: readonly number[];
  /** the ACPs this node announces as supported (v1.13.x: the ones of its release, ACP-176) */
  announcedSupport: readonly number[];
  /** JSON-RPC methods (Go names) the version does not register: `rpc: can't find method` */
  absentMethods: { info: readonly string[]; platform: readonly string[] };
  /** `futureupgrade` health check (v1.14.1+) */
  futureUpgradeCheck: boolean;
  /** `bls` health check (v1.12.2+) */
  blsCheck: boolean;
  /** `primary network validator health` in the network check, and its failure without inbound connections (v1.13.0+) */
  validatorHealth: boolean;
  /** `disconnectedValidators` in the chain checks' networking (v1.11.11+) */
  disconnectedValidators: boolean;
  /** `avgAcceptanceTime` in the chain checks' consensus message (v1.14.2 only: v1.15.0 removed the check) */
  avgAcceptanceTime: boolean;
  /** `availableDiskPercentage` in the diskspace check (v1.14.1+) */
  diskPercentage: boolean;
  /** peers carry `upgradeTime` in info.peers (v1.14.1+) */
  peerUpgradeTime: boolean;
  /** peers carry `observedSubnetUptimes` in info.peers (v1.9.4–v1.11.11) */
  observedSubnetUptimes: boolean;
  /**
   * ACP-77 L1s (Etna): the simulated subnet is an L1 (L1 validator shape with balances,
   * getValidatorFeeState). false: a legacy permissioned subnet (txID … nodeID, connected, uptime).
   */
  l1: boolean;
  /** the deprecated `rewardOwner` (= validationRewardOwner) in primary validator entries (gone in v1.13.x) */
  rewardOwner: boolean;
  /** the deprecated `stakeAmount` (= weight) of every staker (gone in v1.12.x) */
  stakeAmount: boolean;
  /**
   * ACP-236 auto-renewed validators (avalanchego master, once Helicon is active): the own validator and some
   * others list `validatorAuthority`, `nextPeriod`, `autoCompoundRewardShares` (auto-renew.ts).
   */
  autoRenewedStakers: boolean;
  /** platform.getValidatorsAt accepts `"height":"proposed"` (v1.11.13+; before: couldn't unmarshal an argument) */
  proposedHeight: boolean;
  /**
   * platform.getFeeConfig and platform.getValidatorFeeConfig answered. Real nodes have them since Etna (v1.13.5's
   * source has both); the simulator answers them from 1.15.0 on, where they are recorded, and older profiles keep
   * their former `can't find method` (v1.11.7's is recorded).
   */
  feeConfigApi: boolean;
  /**
   * Unix s from which the C-Chain runs SAE (ACP-194) instead of Coreth (TransitionVM, Helicon − 10 s): eth_blockNumber
   * is the last executed block, `safe`/`finalized` the last settled one, /ext/metrics gains the
   * avalanche_evm_transition_* families and Coreth's avalanche_evm_eth_* stop moving (sae-execution.ts,
   * sae-metrics.ts). null: Coreth only.
   */
  saeFromUnix: number | null;
  metrics: MetricsShape;
  /** peers of a mainnet node of this version: version by a uniform roll and the peer's stake position (0..1) */
  peerVersion: (roll: number, stakePos: number) => string;
  /** what ~70 % of the peers run in upgrade-pending / upgrade-unknown */
  nextRelease: string;
  /** version-drift: newer than this version by semver, older as a string */
  driftRelease: string;
}

/** The v1.14.x mix of a mainnet node's peers (v1.14.0 announces no upgrade time: 0). */
function v114Peer(roll: number): string {
  return roll < 0.8 ? 'avalanchego/1.14.2' : roll < 0.95 ? 'avalanchego/1.14.1' : 'avalanchego/1.14.0';
}

/**
 * Peers' stake share below which they run v1.13.x around a v1.13.5 node (> 50 %, see ACP-176). 70 %:
 * the connected supporters then hold 58–72 % of the stake in every minute (300 minutes of seeds 1, 3,
 * 5, 7, 13, 16, 24); at 60 % one large validator out for a minute (the 1 % connection windows) took
 * the share under 50 % (seed 16: 5 minutes in 300).
 */
export const V113_PEER_STAKE_SHARE = 0.7;

const MAINNET_UPGRADES_TO_ETNA: ReadonlyArray<readonly [string, string | number]> = [
  ['apricotPhase1Time', '2021-03-31T14:00:00Z'],
  ['apricotPhase2Time', '2021-05-10T11:00:00Z'],
  ['apricotPhase3Time', '2021-08-24T14:00:00Z'],
  ['apricotPhase4Time', '2021-09-22T21:00:00Z'],
  ['apricotPhase4MinPChainHeight', 793005],
  ['apricotPhase5Time', '2021-12-02T18:00:00Z'],
  ['apricotPhasePre6Time', '2022-09-05T01:30:00Z'],
  ['apricotPhase6Time', '2022-09-06T20:00:00Z'],
  ['apricotPhasePost6Time', '2022-09-07T03:00:00Z'],
  ['banffTime', '2022-10-18T16:00:00Z'],
  ['cortinaTime', '2023-04-25T15:00:00Z'],
  ['cortinaXChainStopVertexID', 'jrGWDh5Po9FMj54depyunNixpia5PN4aAYxfmNzU8n752Rjga'],
  ['durangoTime', '2024-03-06T16:00:00Z'],
  ['etnaTime', '2024-12-16T17:00:00Z'],
];
const MAINNET_UPGRADES_TO_FORTUNA = [...MAINNET_UPGRADES_TO_ETNA, ['fortunaTime', '2025-04-08T15:00:00Z'] as const];

/** What v1.13.5 and v1.14.2 share (both verified on real nodes). */
const SINCE_V113 = {
  absentMethods: { info: [], platform: [] },
  blsCheck: true,
  validatorHealth: true,
  disconnectedValidators: true,
  observedSubnetUptimes: false,
  l1: true,
  rewardOwner: false,
  stakeAmount: false,
  proposedHeight: true,
  metrics: { naming: 'v1.11.8', pollReasons: ['early_alpha', 'early_fail', 'exhausted'], consensusLatencies: true, ethChainHead: true },
  feeConfigApi: false,
  saeFromUnix: null,
} as const;

/**
 * What v1.14.1 and v1.14.2 added, on or off together: the futureupgrade check, availableDiskPercentage,
 * the peers' upgradeTime (v1.14.1) and avgAcceptanceTime in the chain checks (v1.14.2).
 */
const V114_ADDITIONS = (on: boolean) => ({ futureUpgradeCheck: on, avgAcceptanceTime: on, diskPercentage: on, peerUpgradeTime: on });

/**
 * info.getNodeVersion of a release, in Go field order (database v1.4.5 throughout). avm and platform report `vX` up to
 * v1.13.x and the avalanchego version since v1.14, where coreth is grafted into avalanchego: evm reports `vX` then,
 * before it coreth's own version (`coreth`).
 */
function nodeVersion(version: SimVersion, rpcProtocolVersion: string, gitCommit: string, coreth?: string): VersionProfile['nodeVersion'] {
  const vm = coreth === undefined ? `avalanchego/${version}` : `v${version}`;
  return {
    version: `avalanchego/${version}`,
    databaseVersion: 'v1.4.5',
    rpcProtocolVersion,
    gitCommit,
    vmVersions: { avm: vm, evm: coreth ?? `v${version}`, platform: vm },
  };
}

export const VERSION_PROFILES: Readonly<Record<SimVersion, VersionProfile>> = {
  '1.14.2': {
    version: '1.14.2',
    nodeVersion: nodeVersion('1.14.2', '45', '6e5acf909c7a16b991142d6b3979bac5699bdb68'),
    upgrades: [...MAINNET_UPGRADES_TO_FORTUNA, ['graniteTime', '2025-11-19T16:00:00Z'], ['graniteEpochDuration', 300000000000]],
    nextUpgrade: 'heliconTime',
    currentUpgradeUnix: GRANITE_UNIX,
    currentAcps: [],
    announcedSupport: [],
    ...SINCE_V113,
    ...V114_ADDITIONS(true),
    autoRenewedStakers: false,
    peerVersion: (roll) => v114Peer(roll),
    nextRelease: 'avalanchego/1.15.0',
    driftRelease: 'avalanchego/1.14.10',
  },
  // A real v1.15.0 node (test/fixtures/real-node-v1.15.0) on mainnet: Helicon scheduled for 2026-09-22T15:00:00Z
  // (upgrade.Mainnet) and active from then on, the C-Chain on SAE from Helicon − 10 s. The chain checks lost
  // avgAcceptanceTime (v1.15.0 removed the check); CurrentACPs lists Helicon's ACPs and 224, 247, which every
  // v1.15.0 peer supports (ScheduledACPs are always supported); the node's local upgrade time is Helicon's
  // (node.go: "Must be updated for each network upgrade"). Every peer runs 1.15.0 and announces Helicon's time,
  // also before the activation (a network that upgraded ahead of it). ACP-236 auto-renewed validators from Helicon
  // on (auto-renew.ts).
  '1.15.0': {
    version: '1.15.0',
    // Placeholder in the right format (40 hex digits): the release's commit is not recorded (the recorded
    // build says `v1.15.0`, its ldflags string).
    nodeVersion: nodeVersion('1.15.0', '46', '5f0c1a9e2b7d4c3e8a6f1b2d3c4e5f6a7b8c9d0e'),
    upgrades: [...MAINNET_UPGRADES_TO_FORTUNA, ['graniteTime', '2025-11-19T16:00:00Z'], ['graniteEpochDuration', 300000000000], ['heliconTime', HELICON_RFC3339]],
    nextUpgrade: null,
    currentUpgradeUnix: HELICON_UNIX,
    currentAcps: V115_CURRENT_ACPS,
    announcedSupport: HELICON_ACPS,
    ...SINCE_V113,
    ...V114_ADDITIONS(true),
    avgAcceptanceTime: false,
    feeConfigApi: true,
    saeFromUnix: SAE_TRANSITION_UNIX,
    autoRenewedStakers: true,
    peerVersion: () => 'avalanchego/1.15.0',
    nextRelease: 'avalanchego/1.16.0',
    driftRelease: 'avalanchego/1.15.10',
  },
  // Verified on a real v1.13.5 node (issue 16): no heliconTime / graniteEpochDuration and Granite
  // unscheduled in info.upgrades; info.acps lists ACP-176 (CurrentACPs {176}: scheduled in the
  // release and already active on mainnet since Fortuna); no futureupgrade check, no
  // availableDiskPercentage, no peer upgradeTime (all three added in v1.14.1); RPC protocol 43.
  // No avgAcceptanceTime in the chain checks either: it came with v1.14.2 (the avalanchego
  // version table, not part of the list).
  '1.13.5': {
    version: '1.13.5',
    // Placeholder in the right format (40 hex digits), not the release's commit.
    nodeVersion: nodeVersion('1.13.5', '43', 'c7a1f3d2b49e0865f1d7a2c3b4e5f60718293a4b', 'v0.15.4'),
    upgrades: [...MAINNET_UPGRADES_TO_FORTUNA],
    nextUpgrade: 'graniteTime',
    currentUpgradeUnix: FORTUNA_UNIX,
    currentAcps: [ACP_176],
    announcedSupport: [ACP_176],
    ...SINCE_V113,
    ...V114_ADDITIONS(false),
    // Peers holding ~70 % of the stake still run v1.13.x (and announce ACP-176), the rest v1.14.x.
    peerVersion: (roll, stakePos) =>
      stakePos < V113_PEER_STAKE_SHARE ? (roll < 0.8 ? 'avalanchego/1.13.5' : 'avalanchego/1.13.4') : v114Peer(roll),
    autoRenewedStakers: false,
    nextRelease: 'avalanchego/1.14.2',
    driftRelease: 'avalanchego/1.13.10',
  },
  // Shaped after a real v1.12.2 node (test/fixtures/real-node-v1.12.2/): info.upgrades ends with Etna
  // and `fUpgradeTime` (Fortuna's name in v1.12.x) unscheduled; info.acps `{}`; bls check, but no
  // futureupgrade, no `primary network validator health` (v1.13.0), no availableDiskPercentage; the
  // deprecated `rewardOwner` still in validator entries; L1s and getValidatorFeeState present;
  // /ext/metrics in the v1.11.8 naming with the split early-alpha poll reasons, no consensus_latencies.
  '1.12.2': {
    version: '1.12.2',
    nodeVersion: nodeVersion('1.12.2', '39', 'bf1d1debec5fd55055330a00da1e9567b280c950', 'v0.14.1'),
    upgrades: [...MAINNET_UPGRADES_TO_ETNA],
    nextUpgrade: 'fUpgradeTime',
    currentUpgradeUnix: ETNA_UNIX,
    currentAcps: [],
    announcedSupport: [],
    absentMethods: { info: [], platform: [] },
    ...V114_ADDITIONS(false),
    blsCheck: true,
    validatorHealth: false,
    disconnectedValidators: true,
    observedSubnetUptimes: false,
    l1: true,
    rewardOwner: true,
    stakeAmount: false,
    proposedHeight: true,
    feeConfigApi: false,
    saeFromUnix: null,
    metrics: { naming: 'v1.11.8', pollReasons: ['early_alpha_conf', 'early_alpha_pref', 'early_fail', 'exhausted'], consensusLatencies: false, ethChainHead: false },
    peerVersion: (roll) => (roll < 0.8 ? 'avalanchego/1.12.2' : roll < 0.95 ? 'avalanchego/1.12.1' : 'avalanchego/1.12.0'),
    autoRenewedStakers: false,
    nextRelease: 'avalanchego/1.13.0',
    driftRelease: 'avalanchego/1.12.10',
  },
  // Shaped after a real v1.11.7 node (test/fixtures/real-node-v1.11.7/): no info.upgrades, no Etna
  // methods (getFeeState, getValidatorFeeState, getProposedHeight; `"height":"proposed"` refused), no
  // L1s (the simulated subnet is a permissioned one), no bls check, no disconnectedValidators in the
  // chain checks (v1.11.11), peers with observedSubnetUptimes (removed in v1.11.12), `stakeAmount` and
  // `rewardOwner` in the stakers, /ext/metrics in the v1.11.6 naming (no poll_count before v1.11.9).
  '1.11.7': {
    version: '1.11.7',
    nodeVersion: nodeVersion('1.11.7', '35', 'e8ecbadec8eb1c336dd8927b0225499eceea6f34', 'v0.13.4'),
    upgrades: null,
    nextUpgrade: null,
    currentUpgradeUnix: DURANGO_UNIX,
    currentAcps: [],
    announcedSupport: [],
    absentMethods: { info: ['Upgrades'], platform: ['GetFeeState', 'GetValidatorFeeState', 'GetProposedHeight'] },
    ...V114_ADDITIONS(false),
    blsCheck: false,
    validatorHealth: false,
    disconnectedValidators: false,
    observedSubnetUptimes: true,
    l1: false,
    rewardOwner: true,
    stakeAmount: true,
    proposedHeight: false,
    feeConfigApi: false,
    saeFromUnix: null,
    metrics: { naming: 'v1.11.6', pollReasons: [], consensusLatencies: false, ethChainHead: false },
    peerVersion: (roll) => (roll < 0.8 ? 'avalanchego/1.11.7' : roll < 0.95 ? 'avalanchego/1.11.6' : 'avalanchego/1.11.5'),
    autoRenewedStakers: false,
    nextRelease: 'avalanchego/1.12.0',
    driftRelease: 'avalanchego/1.11.10',
  },
};

/**
 * The ACPs a peer announces as supported because of its release (config.go: ScheduledACPs are always supported,
 * and objecting to one is a config error): v1.13.x nodes ACP-176, v1.15.x nodes Helicon's; v1.14.x none.
 */
export function releaseSupportedAcps(peerVersion: string): number[] {
  if (peerVersion.startsWith('avalanchego/1.13.')) return [ACP_176];
  return peerVersion.startsWith('avalanchego/1.15.') ? [...HELICON_ACPS] : [];
}

/** `avalanchego/1.14.2` → [1, 14, 2] (null for another form). */
function semver(peerVersion: string): [number, number, number] | null {
  const m = /^avalanchego\/(\d+)\.(\d+)\.(\d+)$/.exec(peerVersion);
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : null;
}

/** A peer's upgradeTime as a v1.14.1+ node stores it: 0 for peers that announce none (before v1.14.1). */
export function announcesUpgradeTime(peerVersion: string): boolean {
  const v = semver(peerVersion);
  if (!v) return true;
  const [major, minor, patch] = v;
  return major > 1 || minor > 14 || (minor === 14 && patch >= 1);
}
