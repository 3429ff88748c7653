// The simulated avalanchego node: startSimNode() starts an HTTP server that answers like
// avalanchego (v1.15.0 by default, or v1.14.2, v1.13.5, v1.12.2, v1.11.7; see versions.ts and README.md) on the wire, with
// scenarios switchable at runtime through a control endpoint that stays up in every scenario.
// This file wires the parts together: the nodes (node-instance), the request pipeline below (down,
// slow, host check, routes, garbage), the listeners and the control endpoint.
// Part of the simulated avalanchego node, an independent oracle ON PURPOSE: this package shares no
// code with the exporter (src/) and has its own CB58, JSON-RPC envelope and constants, so
// that a bug in the exporter's decoding cannot hide behind the same bug here. Do not "fix" this
// duplication (test/sim/independence.test.ts fails on any import from outside this package).
import http from 'node:http';
import net from 'node:net';
import { PRIMARY_SUBNET_ID } from './avalanche-ids.js';
import type { BlockRates } from './chain-heights.js';
import { MAX_TIMER_MS, handleControl, type ControlContext } from './control-endpoint.js';
import { garble } from './garbage-answers.js';
import { NOT_FOUND, TEXT, hostAllowed, httpError, readBody, send } from './http-transport.js';
import { SimInstance } from './node-instance.js';
import { NodeModel } from './node-model.js';
import { route } from './node-routes.js';
import { SCENARIOS, SCENARIO_HELP, isScenarioName, scenarioNamed, type ScenarioName } from './scenarios/index.js';
import { closeServer, listen, reopen, trackSockets } from './server-listeners.js';
import { TimerRegistry } from './timer-registry.js';
import { DEFAULT_SIM_VERSION, SIM_VERSIONS, isSimVersion, type SimVersion } from './versions.js';

export { SCENARIOS, SCENARIO_HELP, isScenarioName, SIM_VERSIONS, isSimVersion };
export type { ScenarioName, SimVersion };

export interface SimOptions {
  /** listen host of the node port; default '127.0.0.1' (loopback only) */
  host?: string;
  /** node port; default 0 = random free port */
  port?: number;
  /** everything is deterministic from it; default 1 */
  seed?: number;
  /** primary-network validators; default 1500 (mainnet scale) */
  validators?: number;
  /** connected peers; default 1700 */
  peers?: number;
  /** initial scenario of every node; default 'healthy' */
  scenario?: ScenarioName;
  /** health checks recomputed every N ms; default 30000 (like the node) */
  healthIntervalMs?: number;
  /**
   * Delay between a (re)start of a node (start of the simulator, return from 'down', restart())
   * and its first health run; until then every check is "not yet run" and GET /ext/health and
   * /readiness answer 503. A real node runs its checks first one --health-check-frequency
   * (30 s) after start. Default here 5 ms (fast tests); `avalanche-exporter sim` defaults it to
   * the health interval (--health-first-run).
   */
  healthFirstRunMs?: number;
  /**
   * --sybil-protection-enabled of the simulated node(s); default true (mainnet, Fuji). false
   * changes the info.uptime error of a non-validator (see NodeModel.uptimeError).
   */
  sybilProtection?: boolean;
  /** avalanchego version every node answers as: '1.15.0' (default), '1.14.2', '1.13.5', '1.12.2' or '1.11.7' (versions.ts) */
  version?: SimVersion;
  /** per-node versions (multi-node mode): node i is `versions[i] ?? version` */
  versions?: SimVersion[];
  /** answer delay of the 'slow' scenario; default 7000 */
  slowDelayMs?: number;
  /** independent simulated nodes under /node/<i>/ext/...; node 0 also at /ext/...; default 1 */
  nodes?: number;
  /** blocks per second; defaults P 0.2, C 0.5, X 0.1 */
  blockRates?: { P?: number; C?: number; X?: number };
  /** clock in ms; default Date.now */
  now?: () => number;
  /** control server host; default = host */
  controlHost?: string;
  /** control server port; default 0 = random free port */
  controlPort?: number;
}

export interface SimNode {
  /** http://127.0.0.1:PORT (node 0) */
  url: string;
  /** http://127.0.0.1:CPORT control server, up in every scenario including 'down' */
  controlUrl: string;
  /** http://127.0.0.1:PORT/node/i */
  nodeUrl(i: number): string;
  /** the simulated node's own NodeID-… */
  nodeId(i?: number): string;
  primarySubnetId: string;
  /** CB58 subnet ID of an L1 the node also validates */
  l1SubnetId: string;
  /** Blockchain ID of node 0's L1 chain (its /ext/metrics series carry it as `chain`). */
  l1ChainId: string;
  /** switches the scenario of one node, or of all nodes when `node` is omitted */
  setScenario(name: ScenarioName, node?: number): Promise<void>;
  /**
   * Restarts one node's process, or all nodes when `node` is omitted: the health checks start
   * over ("not yet run" until healthFirstRunMs later); the scenario is kept. Restarting all nodes
   * (or the only one) also closes the listener (open connections are reset) and re-opens it on
   * the same port. `healthFirstRunMs` overrides the option for this restart only. Same as
   * POST /sim/restart {"node":i,"healthFirstRunMs":N}.
   */
  restart(node?: number, opts?: { healthFirstRunMs?: number }): Promise<void>;
  scenario(node?: number): ScenarioName;
  /** closes both servers and all sockets, clears all timers */
  close(): Promise<void>;
}

export async function startSimNode(opts: SimOptions = {}): Promise<SimNode> {
  const host = opts.host ?? '127.0.0.1';
  const seed = opts.seed ?? 1;
  const nNodes = Math.max(1, Math.floor(opts.nodes ?? 1));
  const now = opts.now ?? Date.now;
  const healthIntervalMs = Math.max(1, opts.healthIntervalMs ?? 30_000);
  const healthFirstRunMs = Math.min(MAX_TIMER_MS, Math.max(0, opts.healthFirstRunMs ?? 0));
  const slowDelayMs = Math.max(0, opts.slowDelayMs ?? 7000);
  const rates: BlockRates = {
    P: opts.blockRates?.P ?? 0.2,
    C: opts.blockRates?.C ?? 0.5,
    X: opts.blockRates?.X ?? 0.1,
  };
  const versionOf = (i: number): SimVersion => {
    const v = opts.versions?.[i] ?? opts.version ?? DEFAULT_SIM_VERSION;
    if (!isSimVersion(v)) throw new Error(`unknown version ${JSON.stringify(v)}; valid: ${SIM_VERSIONS.join(', ')}`);
    return v;
  };
  const initial = opts.scenario ?? 'healthy';
  if (!isScenarioName(initial)) throw new Error(`unknown scenario ${JSON.stringify(initial)}; valid: ${SCENARIOS.join(', ')}`);

  const timers = new TimerRegistry();
  const instances: SimInstance[] = [];
  for (let i = 0; i < nNodes; i++) {
    const model = new NodeModel({
      seed: seed + i,
      validators: opts.validators ?? 1500,
      peers: opts.peers ?? 1700,
      blockRates: rates,
      now,
      sybilProtection: opts.sybilProtection ?? true,
      version: versionOf(i),
      // Each node of a multi-node simulator is a network of its own (see ModelOptions.networkId).
      networkId: i === 0 ? 1 : 1000 + i,
    });
    model.setScenario(initial);
    instances.push(new SimInstance(i, model, healthIntervalMs));
  }
  const inst0 = instances[0] as SimInstance;
  // Multi-node mode: every node knows the others (validator peers with their own registrations).
  if (instances.length > 1) for (const inst of instances) inst.model.setSiblings(instances.map((i) => i.model));
  for (const inst of instances) inst.startHealth(healthFirstRunMs);
  let closed = false;

  // -------------------------------------------------------------------------
  // the request pipeline of the node port

  async function handleNode(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const rawUrl = req.url ?? '/';
    const url = rawUrl.startsWith('/') ? new URL('http://sim.invalid' + rawUrl) : new URL(rawUrl, 'http://sim.invalid');
    let path = url.pathname;
    if (path.startsWith('/sim/')) return handleControl(control, req, res, path);

    let inst: SimInstance | undefined = inst0;
    const m = /^\/node\/(\d+)(\/.*)?$/.exec(path);
    if (m) {
      inst = instances[Number(m[1])];
      path = m[2] ?? '/';
    }
    if (!inst) {
      send(res, NOT_FOUND);
      return;
    }
    if (inst.model.active.answers === 'refused') {
      // Only some nodes are down (the listener closes when all are): drop the connection.
      req.socket.destroy();
      return;
    }
    const body = await readBody(req);
    if (body === null) {
      send(res, httpError(413, 'http: request body too large'), { 'Node-Id': inst.model.nodeId });
      return;
    }
    if (inst.model.active.answers === 'delayed') {
      await timers.sleep(slowDelayMs);
      if (closed) return;
    }
    const nodeIdHeader = { 'Node-Id': inst.model.nodeId };
    if (!hostAllowed(req.headers.host)) {
      send(res, httpError(403, 'invalid host specified'), nodeIdHeader);
      return;
    }
    let answer = route(inst, req, path, url.searchParams, body);
    if (inst.model.active.answers === 'garbled' && answer.status < 300 && answer.body !== '' && answer.ok) {
      answer = garble(answer, inst.garbageCounter++);
    }
    send(res, answer, nodeIdHeader);
  }

  // -------------------------------------------------------------------------
  // servers

  const onError = (res: http.ServerResponse) => (e: unknown): void => {
    if (!res.headersSent && !res.destroyed) {
      res.writeHead(500, { 'Content-Type': TEXT });
      res.end(`internal error: ${e instanceof Error ? e.message : String(e)}\n`);
    }
  };
  const nodeServer = http.createServer((req, res) => {
    handleNode(req, res).catch(onError(res));
  });
  // avalanchego: 30 s read/header/write timeouts, 120 s idle.
  nodeServer.keepAliveTimeout = 120_000;
  nodeServer.headersTimeout = 30_000;
  const sockets = trackSockets(nodeServer);
  const controlServer = http.createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://sim.invalid').pathname;
    handleControl(control, req, res, path).catch(onError(res));
  });
  const controlSockets = trackSockets(controlServer);

  const fmtHost = (h: string): string => (net.isIPv6(h) ? `[${h}]` : h);
  const port = await listen(nodeServer, host, opts.port ?? 0);
  // Starting down: the port is reserved (bound, read, closed) without serving on it.
  if (scenarioNamed(initial).answers === 'refused') await closeServer(nodeServer, sockets);
  let controlPort: number;
  try {
    controlPort = await listen(controlServer, opts.controlHost ?? host, opts.controlPort ?? 0);
  } catch (e) {
    await closeServer(nodeServer, sockets);
    throw e;
  }
  const nodeBase = `http://${fmtHost(host)}:${port}`;
  const controlBase = `http://${fmtHost(opts.controlHost ?? host)}:${controlPort}`;

  /** The node port listens while at least one node is not down. */
  async function syncListener(): Promise<void> {
    const allDown = instances.every((i) => i.model.active.answers === 'refused');
    if (allDown && nodeServer.listening) await closeServer(nodeServer, sockets);
    else if (!allDown && !nodeServer.listening && !closed) await reopen(nodeServer, host, port, (ms) => timers.sleep(ms), () => closed);
  }

  // Scenario switches and restarts run one after the other (listener close/re-open must not interleave).
  let chain: Promise<void> = Promise.resolve();
  function serialized(fn: () => Promise<void>): Promise<void> {
    const p = chain.then(fn, fn);
    chain = p.catch(() => undefined);
    return p;
  }
  const nodeError = (node: number | undefined): Error | null =>
    node !== undefined && !(Number.isInteger(node) && node >= 0 && node < nNodes) ? new Error(`node must be an integer in [0,${nNodes - 1}]`) : null;

  function setScenario(name: ScenarioName, node?: number): Promise<void> {
    if (!isScenarioName(name)) {
      return Promise.reject(new Error(`unknown scenario ${JSON.stringify(name)}; valid: ${SCENARIOS.join(', ')}`));
    }
    const bad = nodeError(node);
    if (bad) return Promise.reject(bad);
    return serialized(async () => {
      const targets = node === undefined ? instances : [instances[node] as SimInstance];
      const facing = targets.map((t) => t.model.siblingFacingState());
      // Leaving 'down' (answers refused) is a restart of the node process: its checks start over. So is
      // going back to bootstrapping (a bootstrapped avalanchego chain bootstraps again only in a new
      // process), and a change of what the node runs (a subnet no longer tracked, a VM plugin removed
      // or back: --track-subnets and the plugin directory are read at start).
      const next = scenarioNamed(name);
      const restarted = targets.filter((t) =>
        next.answers === 'refused'
          ? false
          : t.model.active.answers === 'refused' || (next.node?.bootstrapped === false && t.model.bootstrapped) || (next.l1?.chain ?? 'runs') !== (t.model.active.l1?.chain ?? 'runs'),
      );
      for (const t of targets) t.model.setScenario(name);
      for (const t of restarted) t.startHealth(healthFirstRunMs);
      // Recompute the checks at once so the switch is visible without waiting a whole period; on
      // every node when the switch changes what the siblings' checks see (link, weight, upgrade).
      // A node whose checks have not run since its (re)start keeps "not yet run".
      const siblingsToo = instances.length > 1 && targets.some((t, i) => t.model.siblingFacingState() !== facing[i]);
      for (const t of siblingsToo ? instances : targets) t.rerunHealth();
      await syncListener();
    });
  }

  function restart(node?: number, o: { healthFirstRunMs?: number } = {}): Promise<void> {
    const bad = nodeError(node);
    if (bad) return Promise.reject(bad);
    const firstRunMs = Math.min(MAX_TIMER_MS, Math.max(0, o.healthFirstRunMs ?? healthFirstRunMs));
    return serialized(async () => {
      const targets = node === undefined ? instances : [instances[node] as SimInstance];
      // The listener is shared: it goes down with the process only when every node restarts.
      if (targets.length === instances.length && nodeServer.listening) await closeServer(nodeServer, sockets);
      for (const t of targets) t.startHealth(firstRunMs);
      await syncListener();
    });
  }

  const control: ControlContext = {
    instances,
    nodeBase,
    controlBase,
    listening: () => nodeServer.listening,
    validators: opts.validators ?? 1500,
    setScenario,
    restart,
  };

  return {
    url: nodeBase,
    controlUrl: controlBase,
    nodeUrl: (i: number) => `${nodeBase}/node/${i}`,
    nodeId: (i = 0) => {
      const inst = instances[i];
      if (!inst) throw new RangeError(`no simulated node ${i}`);
      return inst.model.nodeId;
    },
    primarySubnetId: PRIMARY_SUBNET_ID,
    l1SubnetId: inst0.model.l1SubnetId,
    l1ChainId: inst0.model.l1ChainId,
    setScenario,
    restart,
    scenario: (i = 0) => {
      const inst = instances[i];
      if (!inst) throw new RangeError(`no simulated node ${i}`);
      return inst.model.scenario;
    },
    close: async () => {
      if (closed) return;
      closed = true;
      timers.clearAll();
      await Promise.all([closeServer(nodeServer, sockets), closeServer(controlServer, controlSockets)]);
    },
  };
}
