// A fleet of simulated avalanchego nodes inside the backtest process, on the backtest's clock: the
// same NodeModel and SimInstance objects that startSimNode() serves over HTTP, answered through
// node-routes' route() without sockets. Scenario switches and restarts follow server.ts (leaving
// `down` restarts the node's process; a switch that changes what the siblings see re-runs their
// health checks), so the answers are the ones a loopback simulator would have given at that time.
import type http from 'node:http';
import {
  isAutoRenewed,
  garble,
  type HttpAnswer,
  SimInstance,
  NodeModel,
  route,
  isScenarioName,
  SCENARIOS,
  scenarioNamed,
  type ScenarioName,
  validatorPeriod,
  type SimVersion,
} from '@avalanche-exporter/simulated-node';

export interface FleetOptions {
  nodes: number;
  /** node i is seeded with seed + i (as startSimNode does) */
  seed: number;
  validators: number;
  peers: number;
  now: () => number;
  /** avalanchego's --health-check-frequency; default 30 s */
  healthIntervalMs?: number;
  /** first health run after a restart of the node's process; default = the health interval (a real node) */
  restartFirstRunMs?: number;
  blockRates?: { P: number; C: number; X: number };
  versions?: readonly SimVersion[];
  /**
   * one more node after the fleet (index `nodes`), healthy, not a sibling of the fleet's: the public
   * API node a reference target asks; every node shares the network's chain heights (chainSeed)
   */
  reference?: boolean;
}

/** What one request to a simulated node gives: an HTTP answer, or a transport failure. */
export type FleetOutcome =
  | { readonly kind: 'answer'; readonly answer: HttpAnswer; readonly nodeId: string }
  | { readonly kind: 'error'; readonly code: 'ECONNREFUSED' | 'UND_ERR_HEADERS_TIMEOUT' };

export class SimFleet {
  readonly instances: readonly SimInstance[];
  private readonly restartFirstRunMs: number;

  constructor(opts: FleetOptions) {
    const healthIntervalMs = Math.max(1, opts.healthIntervalMs ?? 30_000);
    this.restartFirstRunMs = opts.restartFirstRunMs ?? healthIntervalMs;
    const rates = opts.blockRates ?? { P: 0.2, C: 0.5, X: 0.1 };
    const list: SimInstance[] = [];
    const make = (i: number) =>
      new SimInstance(
        i,
        new NodeModel({
          seed: opts.seed + i,
          validators: opts.validators,
          peers: opts.peers,
          blockRates: rates,
          now: opts.now,
          sybilProtection: true,
          // the reference node (index `nodes`) runs what the fleet's first node runs: one network, one release
          version: opts.versions?.[i] ?? (i === opts.nodes ? opts.versions?.[0] : undefined) ?? '1.14.2',
          // The same heights on every node and the reference (one chain seed), but each node has its own
          // validator set and L1, so each reports a network ID of its own (as a multi-node simulator
          // does, sim/server.ts): the exporter shares network answers only within a network, and a
          // node's peers and validators must come from that node's own answers.
          chainSeed: opts.seed,
          networkId: i === 0 ? 1 : 1000 + i,
        }),
        healthIntervalMs,
      );
    for (let i = 0; i < opts.nodes; i++) list.push(make(i));
    if (list.length > 1) for (const inst of list) inst.model.setSiblings(list.map((x) => x.model));
    if (opts.reference) list.push(make(opts.nodes));
    // The fleet has been running before the backtest starts: its checks have run.
    for (const inst of list) inst.startHealth(0);
    this.instances = list;
    this.nodes = opts.nodes;
  }

  /** the fleet's nodes (the reference node, when there is one, is the next index) */
  readonly nodes: number;

  get size(): number {
    return this.instances.length;
  }

  private inst(i: number): SimInstance {
    const inst = this.instances[i];
    if (!inst) throw new RangeError(`no simulated node ${i} (fleet of ${this.instances.length})`);
    return inst;
  }

  nodeId(i: number): string {
    return this.inst(i).model.nodeId;
  }

  l1SubnetId(i: number): string {
    return this.inst(i).model.l1SubnetId;
  }

  scenario(i: number): ScenarioName {
    return this.inst(i).model.scenario;
  }

  /** Switches node i's scenario, as SimNode.setScenario(name, i) does. */
  setScenario(i: number, name: string): void {
    if (!isScenarioName(name)) throw new Error(`unknown scenario ${JSON.stringify(name)}; valid: ${SCENARIOS.join(', ')}`);
    const t = this.inst(i);
    const facing = t.model.siblingFacingState();
    // Leaving a scenario whose answers are refused (down) is a restart of the node process.
    const restarted = scenarioNamed(name).answers !== 'refused' && t.model.active.answers === 'refused';
    t.model.setScenario(name);
    if (restarted) t.startHealth(this.restartFirstRunMs);
    const siblingsToo = this.instances.length > 1 && t.model.siblingFacingState() !== facing;
    for (const x of siblingsToo ? this.instances : [t]) x.rerunHealth();
  }

  /** A restart of node i's process: its checks are "not yet run" until the first run. */
  restart(i: number, firstRunMs?: number): void {
    this.inst(i).startHealth(firstRunMs ?? this.restartFirstRunMs);
  }

  private nowS(i: number): number {
    return Math.floor(this.inst(i).model.now() / 1000);
  }

  /** Whether node i's own validator is auto-renewed now (ACP-236: 1.15.0 after Helicon). */
  autoRenewed(i: number): boolean {
    const m = this.inst(i).model;
    return isAutoRenewed(m.seed, m.profile.autoRenewedStakers, m.selfNow, this.nowS(i));
  }

  /** Node i's own validation now (an auto-renewed validator: its cycle), unix s. */
  ownPeriod(i: number): { start: number; end: number } {
    const m = this.inst(i).model;
    const p = validatorPeriod(m, m.selfNow, this.nowS(i));
    return { start: p.start, end: p.end };
  }

  /**
   * Node i's fixed-end validation ends now with its reward paid and a new one starts (simulated-node/src/own-history.ts);
   * false (nothing happens) on an auto-renewed validator, whose cycle boundary is its re-stake, and on a node
   * that is not a validator now.
   */
  restake(i: number): boolean {
    const m = this.inst(i).model;
    if (this.autoRenewed(i) || !m.isValidator) return false;
    m.history.register(this.nowS(i), 'restake');
    return true;
  }

  /** Node i's own validator registers anew now (after a spell out of the set: a `join`). */
  join(i: number): void {
    this.inst(i).model.history.register(this.nowS(i), 'join');
  }

  /** A validator of node i's L1 registered now, or the last one registered removed; false before Etna (no L1). */
  changeL1(i: number): boolean {
    const m = this.inst(i).model;
    if (!m.profile.l1) return false;
    m.history.changeL1(this.nowS(i));
    return true;
  }

  /** A share of node i's validator peers restart now, for `forMs`. */
  restartPeers(i: number, share: number, forMs: number): void {
    const from = this.nowS(i);
    this.inst(i).model.history.restartPeers(from, from + Math.max(1, Math.round(forMs / 1000)), share);
  }

  /**
   * Node i's answer to one request, as server.ts's pipeline gives it: a down node refuses the
   * connection, a slow one answers after the exporter's deadline (a timeout), garbage corrupts.
   */
  request(i: number, method: string, pathAndQuery: string, headers: Record<string, string>, body: string): FleetOutcome {
    const inst = this.inst(i);
    const answers = inst.model.active.answers;
    if (answers === 'refused') return { kind: 'error', code: 'ECONNREFUSED' };
    // the simulator's delay (7 s by default) is longer than the exporter's deadline (5 s)
    if (answers === 'delayed') return { kind: 'error', code: 'UND_ERR_HEADERS_TIMEOUT' };
    const url = new URL(pathAndQuery, 'http://sim.invalid');
    const req = { method, headers } as unknown as http.IncomingMessage;
    let answer = route(inst, req, url.pathname, url.searchParams, body);
    if (answers === 'garbled' && answer.status < 300 && answer.body !== '' && answer.ok) answer = garble(answer, inst.garbageCounter++);
    return { kind: 'answer', answer, nodeId: inst.model.nodeId };
  }
}
