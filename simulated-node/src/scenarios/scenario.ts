// What a scenario of the simulated node is: its name, its help line and the behaviour it changes,
// as typed hooks that the simulator's services consult (`m.active.peers?.release`, …) instead of
// comparing scenario names. A hook left out means "as in healthy". Each scenario is one module next
// to this file; index.ts is the only list.
// Part of the simulated avalanchego node, an independent oracle ON PURPOSE: this package shares no
// code with the exporter (src/) and has its own CB58, JSON-RPC envelope and constants, so
// that a bug in the exporter's decoding cannot hide behind the same bug here. Do not "fix" this
// duplication (test/sim/independence.test.ts fails on any import from outside this package).
//
// This file imports nothing: the services import its types, and the scenario modules import it, so
// neither can close an import cycle through it.

/** What a hook may read of the node (NodeModel satisfies it structurally). */
export interface ScenarioNode {
  readonly seed: number;
  /** unix second of the switch to the active scenario (the fixed reference of time-based scenarios) */
  readonly switchS: number;
  /** when the active scenario started (ms, simulator clock) */
  readonly scenarioSinceMs: number;
  /** the simulator's clock (ms) */
  now(): number;
  /** the releases of the node's version (versions.ts) */
  readonly profile: { readonly nextRelease: string; readonly driftRelease: string };
}

/** A model that runs a scenario (the model interfaces of the services extend it). */
export interface ScenarioModel extends ScenarioNode {
  /** the active scenario */
  readonly active: Scenario;
}

/** One validation period: the k-th renewal, start and end (unix s). */
export interface ValidationPeriod {
  k: number;
  start: number;
  end: number;
}

/** A peer, as an observedUptime hook sees it. */
export interface ObservingPeer {
  /** the peer key */
  readonly key: number;
  /** the peer's seeded fraction (0..1) */
  readonly r: number;
  /** the peer's slow drift (sin, -1..1) */
  readonly drift: number;
  /** its position in the seeded stake order (0..1) when it is a local validator, else null */
  readonly validatorPos: number | null;
  /** its position in the stake order, or a seeded fraction for other peers (stakeOrderPos) */
  readonly orderPos: number;
}

/** Route groups that can answer a plain-text 404. */
export type RouteGroup = 'health' | 'metrics' | 'index';

/** info methods a scenario can leave unregistered. */
export type InfoMethod = 'GetNodeID' | 'GetNodeIP' | 'GetVMs';

/**
 * A scenario. Every hook names the file that consults it; what is not given stays as in healthy.
 * `N` is the literal name (see defineScenario).
 */
export interface Scenario<N extends string = string> {
  readonly name: N;
  /** one line, for --help and GET /sim/scenarios */
  readonly help: string;
  /** its row's effect column in the scenario tables of README.md (Markdown; test/sim/scenario-modules.test.ts checks it) */
  readonly effect: string;

  /**
   * server.ts, the node port's pipeline: 'refused' = the node process is down (connections refused,
   * or reset while sibling nodes are up; leaving it is a restart: checks "not yet run"); 'delayed' =
   * every answer after slowDelayMs; 'garbled' = successful answers corrupted (garbage-answers.ts).
   */
  readonly answers?: 'refused' | 'delayed' | 'garbled';

  /** node-routes.ts */
  readonly routes?: {
    /** route groups that answer a plain-text 404 */
    readonly notFound?: readonly RouteGroup[];
    /** the Admin API is served (--api-admin-enabled; admin-service.ts) */
    readonly admin?: true;
  };

  /** info-service.ts, blockchains.ts */
  readonly info?: {
    /** methods not registered (a public API server) */
    readonly absent?: readonly InfoMethod[];
    /** info.getNodeIP: the advertised address, from the seeded one */
    readonly nodeIp?: (seeded: string) => string;
  };

  /** the index: 'stalled' = frozen at the switch (index-containers.ts), 'empty' = nothing accepted (index-service.ts) */
  readonly index?: 'stalled' | 'empty';

  /** node-model.ts: the node's own state */
  readonly node?: {
    /** false: P/X/C not bootstrapped (chain routes 503, checks, isBootstrapped, metrics, L1 chain) */
    readonly bootstrapped?: false;
    /** false: the node is in no validator set (primary, L1) */
    readonly validator?: false;
    /** 'rekeyed': info.getNodeID shows another BLS key than the registered one */
    readonly blsKey?: 'rekeyed';
    /** false: no connection between this node and its sibling nodes (both ways) */
    readonly linkedToSiblings?: false;
    /** unix s of this version's next upgrade in the node's config (else unscheduled) */
    readonly nextUpgradeAt?: (n: ScenarioNode) => number;
    /** constants.CurrentACPs and the stance the node announces (else the version's) */
    readonly acps?: { readonly current: readonly number[]; readonly supported: readonly number[]; readonly objected: readonly number[] };
    /**
     * chain-heights.ts: from the switch (`graceMs` later when given) on these chains accept blocks at `rate`
     * times the network's pace (0: none, consensus stuck; 0.5: falling behind); leaving the scenario catches up
     * at once. `dropped`: the blocks the node cannot accept fail verification instead of waiting in consensus
     * (ext-metrics.ts: no growing `blks_processing`). `issued: false`: no block is issued to the chain's consensus at
     * all (no transaction: an idle L1; or none reaches the node): nothing waits, and the chain's check says nothing.
     * Otherwise blocks keep arriving and wait (stuck-consensus.ts: `blks_processing` grows; the L1 chain's check
     * fails once one has waited 30 s)
     */
    readonly chainProgress?: {
      readonly chains: readonly ('P' | 'X' | 'C' | 'L1')[];
      readonly rate: number;
      readonly graceMs?: number;
      readonly dropped?: true;
      readonly issued?: false;
    };
    /** sae-execution.ts: 'stalled' = the C-Chain's SAE executor executes nothing from the switch on (SAE versions only) */
    readonly saeExecution?: 'stalled';
    /** availableDisk: the disk fills by this share of its size per hour from the switch on */
    readonly diskFillPerHour?: number;
  };

  /** validator-registry.ts, reward-period.ts, rewards.ts: the own registration and the connections */
  readonly validators?: {
    /** the own delegation as registered (from the seeded one) */
    readonly ownDelegation?: (self: { readonly own: bigint; readonly deleg: bigint; readonly delegatorCount: number }) => {
      deleg: bigint;
      delegatorCount: number;
    };
    /** the own validation period at nowS; `base(s)` is the period it has at s in healthy */
    readonly ownPeriod?: (n: ScenarioNode, base: (atS: number) => ValidationPeriod, nowS: number) => ValidationPeriod;
    /**
     * the own validation current at the switch ends 60 s later, re-staked, its reward paid or not;
     * 'missed' ends a validation with a txID of its own, 'missed-watched' the one current at the switch
     */
    readonly rewardOutcome?: 'paid' | 'missed' | 'missed-watched';
    /** false: the own getCurrentValidators entry shows connected:false */
    readonly ownConnected?: false;
    /** only the first N validator peers are connected */
    readonly connectedPeers?: number;
  };

  /** peers.ts */
  readonly peers?: {
    /** the version and announced upgrade time of a validator or non-validator peer, by its stake order position; null = its own */
    readonly release?: (n: ScenarioNode, orderPos: number) => { version: string; upgradeTime: number } | null;
    /** the ACP stance of a local validator peer, by its stake order position (else its seeded one) */
    readonly acpStance?: (validatorPos: number) => { supported: number[]; objected: number[] };
    /** false: no inbound connection (every peer dialled by this node; network check failing) */
    readonly inbound?: false;
    /** false: no non-validator peers */
    readonly nonValidators?: false;
  };

  /** uptime.ts: how a peer sees this node's uptime (0-100, before rounding down and clamping) */
  readonly observedUptime?: (n: ScenarioNode, peer: ObservingPeer) => number;

  /** l1-validators.ts, blockchains.ts */
  readonly l1?: {
    /** the own L1 validator's balance (nAVAX) at nowS (negative = 0) */
    readonly ownBalance?: (n: ScenarioNode, nowS: number) => bigint;
    /** the balance (nAVAX, negative = 0) at nowS of another L1 validator, by its position in the seeded list
     * (weights 20, 50, own, 100, 200, 20, 10); undefined: its own course (topped up like the own one) */
    readonly otherBalance?: (n: ScenarioNode, position: number, nowS: number) => bigint | undefined;
    /** false: of the L1 validators only the node itself is connected (the L1 chain check fails) */
    readonly peersConnected?: false;
    /** the L1 chain is not run: its subnet not tracked, its VM plugin not installed, or the plugin implements another RPCChainVM protocol */
    readonly chain?: 'untracked' | 'vm-missing' | 'vm-protocol-mismatch';
  };

  /** economics.ts */
  readonly platform?: {
    /** getMinStake minValidatorStake, from the own stake (nAVAX) */
    readonly minValidatorStake?: (ownStake: bigint) => bigint;
    /** getFeeState (without timestamp) */
    readonly feeState?: { readonly capacity: number; readonly excess: number; readonly price: number };
  };

  /** ext-metrics.ts */
  readonly extMetrics?: {
    /** the naming of an older release */
    readonly naming?: 'v1.11.6' | 'v1.10';
    /** failing polls, rejected blocks, expired messages, send failures, blocks processing */
    readonly degraded?: true;
    /** the time one database call takes (ns; healthy: 9 µs, batch writes 80 µs) */
    readonly dbCallNs?: number;
    /** C-Chain blocks failing verification per minute (coreth's chain/block/bad/count; healthy: none) */
    readonly badBlocksPerMinute?: number;
    /** blocks waiting in consensus on P, X and C (finalization slow, not stopped; healthy: 0 or 1) */
    readonly blocksProcessing?: number;
  };
}

/** A scenario module's one export; keeps the literal name (the type of ScenarioName). */
export function defineScenario<const N extends string>(s: Scenario<N>): Scenario<N> {
  return s;
}
