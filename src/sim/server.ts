// Simulated avalanchego node: an HTTP server that answers like avalanchego v1.14.2
// on the wire (see /work/shared/AVALANCHEGO.md), with scenarios switchable at
// runtime through a control endpoint that stays up in every scenario.
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import net from 'node:net';
import { handleEthBody, ethPrecheck } from './eth.js';
import { HealthChecker, type HealthReport } from './health.js';
import { C_CHAIN_ID, NodeModel, P_CHAIN_ID, X_CHAIN_ID, type BlockRates, type ChainAlias } from './model.js';
import { handleRpcBody, type HttpAnswer, type Services } from './rpc.js';
import { SCENARIOS, SCENARIO_HELP, isScenarioName, type ScenarioName } from './scenarios.js';
import { avmService, healthService, indexService, infoService, platformService, type IndexKind } from './services.js';
import { PRIMARY_SUBNET_ID, goJson } from './util.js';
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
  /** avalanchego version every node answers as: '1.14.2' (default) or '1.13.5' (versions.ts) */
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

const TEXT = 'text/plain; charset=utf-8';
const NOT_FOUND: HttpAnswer = {
  status: 404,
  headers: { 'Content-Type': TEXT, 'X-Content-Type-Options': 'nosniff' },
  body: '404 page not found\n',
};
const MAX_BODY = 16 * 1024 * 1024;
/** setTimeout's limit (2^31 - 1 ms); longer delays would fire at once. */
const MAX_TIMER_MS = 2_147_483_647;

interface SimInstance {
  index: number;
  model: NodeModel;
  health: HealthChecker;
  garbageCounter: number;
  /** the health schedule of this node since its last (re)start (first run, then the interval) */
  healthTimers: NodeJS.Timeout[];
  /** true from a (re)start until the first health run: every check is "not yet run" */
  healthPending: boolean;
}

function httpError(status: number, msg: string): HttpAnswer {
  return { status, headers: { 'Content-Type': TEXT, 'X-Content-Type-Options': 'nosniff' }, body: msg + '\n' };
}

/** gorilla rpc's WriteError for 405/415: text, no trailing newline. */
function rpcTransportError(status: number, msg: string): HttpAnswer {
  return { status, headers: { 'Content-Type': TEXT }, body: msg };
}

/** --http-allowed-hosts=localhost: IP literals and an empty Host are always allowed. */
function hostAllowed(hostHeader: string | undefined): boolean {
  if (hostHeader === undefined || hostHeader === '') return true;
  let host = hostHeader;
  if (host.startsWith('[')) {
    const end = host.indexOf(']');
    host = end > 0 ? host.slice(1, end) : host;
  } else {
    const colon = host.lastIndexOf(':');
    if (colon >= 0 && host.indexOf(':') === colon) host = host.slice(0, colon);
  }
  if (net.isIP(host) !== 0) return true;
  return host.toLowerCase() === 'localhost';
}

// ---------------------------------------------------------------------------
// 'garbage' scenario: corrupt answers in rotation

function mangle(v: unknown, key = ''): unknown {
  if (key === 'numPeers') return true;
  if (key === 'height' || key === 'index') return { value: v };
  if (typeof v === 'string') {
    if (/^[0-9]+(\.[0-9]+)?$/.test(v)) return { value: v };
    if (/^0x[0-9a-f]+$/.test(v)) return Number.parseInt(v.slice(2, 14), 16);
    if (/^\d{4}-\d\d-\d\dT/.test(v)) return 0;
    return v;
  }
  if (typeof v === 'boolean') return v ? 'yes' : 'no';
  if (Array.isArray(v)) return { length: v.length };
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) out[k] = mangle(x, k);
    return out;
  }
  return v;
}

function garble(a: HttpAnswer, counter: number): HttpAnswer {
  const headers = { ...a.headers, 'Content-Type': a.headers['Content-Type'] ?? 'application/json' };
  switch (counter % 4) {
    case 0:
      return { status: 200, headers, body: '<html><body><h1>502 Bad Gateway</h1></body></html>\n' };
    case 1: {
      try {
        const parsed = JSON.parse(a.body) as Record<string, unknown>;
        let out = 'result' in parsed ? { ...parsed, result: mangle(parsed['result']) } : mangle(parsed);
        // Nothing to mangle (e.g. info.acps {"acps":{}}): wrong types all the same, the result in an array.
        if (JSON.stringify(out) === JSON.stringify(parsed)) out = 'result' in parsed ? { ...parsed, result: [parsed['result']] } : [parsed];
        return { status: 200, headers, body: JSON.stringify(out) + '\n' };
      } catch {
        return { status: 200, headers, body: '{"jsonrpc":"2.0","result":true}\n' };
      }
    }
    case 2:
      return { status: 200, headers, body: a.body.slice(0, Math.max(1, Math.floor(a.body.length / 2))) };
    default: {
      let id = '1';
      try {
        const parsed = JSON.parse(a.body) as Record<string, unknown>;
        if ('id' in parsed) id = JSON.stringify(parsed['id']);
        else return { status: 200, headers, body: '{"checks":"all good","healthy":"true"}\n' };
      } catch {
        /* keep id 1 */
      }
      return { status: 200, headers, body: `{"jsonrpc":"2.0","result":"OK","id":${id}}\n` };
    }
  }
}

// ---------------------------------------------------------------------------

export async function startSimNode(opts: SimOptions = {}): Promise<SimNode> {
  const host = opts.host ?? '127.0.0.1';
  const seed = opts.seed ?? 1;
  const nNodes = Math.max(1, Math.floor(opts.nodes ?? 1));
  const now = opts.now ?? Date.now;
  const healthIntervalMs = Math.max(1, opts.healthIntervalMs ?? 30_000);
  const healthFirstRunMs = Math.min(MAX_TIMER_MS, Math.max(0, opts.healthFirstRunMs ?? 5));
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
    });
    model.setScenario(initial);
    instances.push({ index: i, model, health: new HealthChecker(model), garbageCounter: 0, healthTimers: [], healthPending: true });
  }
  const inst0 = instances[0] as SimInstance;
  // Multi-node mode: every node knows the others (validator peers with their own registrations).
  if (instances.length > 1) for (const inst of instances) inst.model.setSiblings(instances.map((i) => i.model));

  let closed = false;
  const timers = new Set<NodeJS.Timeout>();
  const pendingDelays = new Set<() => void>();
  const sleep = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(t);
        timers.delete(t);
        pendingDelays.delete(done);
        resolve();
      };
      const t = setTimeout(done, ms);
      timers.add(t);
      pendingDelays.add(done);
    });

  /**
   * A (re)start of node `inst`'s process: every check "not yet run" until the first run
   * healthFirstRunMs later, then one run every healthIntervalMs (avalanchego's health worker runs
   * its checks every --health-check-frequency; a fresh process has no result yet).
   */
  function startHealth(inst: SimInstance, firstRunMs = healthFirstRunMs): void {
    for (const t of inst.healthTimers) {
      clearTimeout(t);
      clearInterval(t);
      timers.delete(t);
    }
    inst.healthTimers = [];
    inst.health.reset();
    inst.healthPending = true;
    const first = setTimeout(() => {
      timers.delete(first);
      if (closed) return;
      inst.healthPending = false;
      inst.health.run();
      const every = setInterval(() => {
        if (!closed) inst.health.run();
      }, healthIntervalMs);
      timers.add(every);
      inst.healthTimers.push(every);
    }, firstRunMs);
    timers.add(first);
    inst.healthTimers.push(first);
  }
  for (const inst of instances) startHealth(inst);

  // -------------------------------------------------------------------------
  // node request handling

  function rpcEndpoint(req: http.IncomingMessage, body: string, services: Services): HttpAnswer {
    const method = req.method ?? 'GET';
    if (method !== 'POST') return rpcTransportError(405, `rpc: POST method required, received ${method}`);
    let ct = req.headers['content-type'] ?? '';
    const semi = ct.indexOf(';');
    if (semi !== -1) ct = ct.slice(0, semi);
    if (ct.toLowerCase() !== 'application/json') return rpcTransportError(415, `rpc: unrecognized Content-Type: ${ct}`);
    return handleRpcBody(body, services);
  }

  function healthGet(report: HealthReport): HttpAnswer {
    return {
      status: report.healthy ? 200 : 503,
      headers: { 'Content-Type': 'application/json' },
      body: goJson(report) + '\n',
      ok: true,
    };
  }

  function route(inst: SimInstance, req: http.IncomingMessage, path: string, query: URLSearchParams, body: string): HttpAnswer {
    const m = inst.model;
    const scenario = m.scenario;
    const chainRoute = (chain: ChainAlias, fn: () => HttpAnswer): HttpAnswer => {
      void chain;
      if (!m.bootstrapped) return httpError(503, 'API call rejected because chain is not done bootstrapping');
      return fn();
    };

    switch (path) {
      case '/ext/info':
        return rpcEndpoint(req, body, { info: infoService(m) });
      case '/ext/health':
        if (scenario === 'public-server') return NOT_FOUND;
        if (req.method === 'GET') return healthGet(inst.health.health(query.getAll('tag')));
        return rpcEndpoint(req, body, { health: healthService(inst.health) });
      case '/ext/health/health':
        if (scenario === 'public-server') return NOT_FOUND;
        return healthGet(inst.health.health(query.getAll('tag')));
      case '/ext/health/readiness':
        if (scenario === 'public-server') return NOT_FOUND;
        return healthGet(inst.health.readiness());
      case '/ext/health/liveness':
        if (scenario === 'public-server') return NOT_FOUND;
        return healthGet(inst.health.liveness());
      case '/ext/bc/P':
      case '/ext/P':
      case '/ext/platform':
      case '/ext/bc/platform':
      case `/ext/bc/${P_CHAIN_ID}`:
        return chainRoute('P', () => rpcEndpoint(req, body, { platform: platformService(m) }));
      case '/ext/bc/X':
      case `/ext/bc/${X_CHAIN_ID}`:
        return chainRoute('X', () => rpcEndpoint(req, body, { avm: avmService(m) }));
      case '/ext/bc/C/rpc':
      case `/ext/bc/${C_CHAIN_ID}/rpc`:
        return chainRoute('C', () => {
          const rejected = ethPrecheck(req.method ?? 'GET', req.headers['content-type'], body.length);
          return rejected ?? handleEthBody(m, body);
        });
      default:
        break;
    }
    const idx = /^\/ext\/index\/([PCX])\/(block|tx|vtx)$/.exec(path);
    if (idx) {
      const chain = idx[1] as ChainAlias;
      const kind = idx[2] as IndexKind;
      if (kind !== 'block' && chain !== 'X') return NOT_FOUND;
      if (scenario === 'index-disabled') return NOT_FOUND;
      return rpcEndpoint(req, body, { index: indexService(m, chain, kind) });
    }
    // /ext/admin is disabled (the default), everything else is unknown.
    return NOT_FOUND;
  }

  async function readBody(req: http.IncomingMessage): Promise<string | null> {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req) {
      const b = chunk as Buffer;
      size += b.length;
      if (size > MAX_BODY) return null;
      chunks.push(b);
    }
    return Buffer.concat(chunks).toString('utf8');
  }

  function send(res: http.ServerResponse, a: HttpAnswer, extra: Record<string, string> = {}): void {
    if (res.destroyed || res.writableEnded) return;
    res.writeHead(a.status, { ...extra, ...a.headers });
    res.end(a.body);
  }

  async function handleNode(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const rawUrl = req.url ?? '/';
    const url = rawUrl.startsWith('/') ? new URL('http://sim.invalid' + rawUrl) : new URL(rawUrl, 'http://sim.invalid');
    let path = url.pathname;
    if (path.startsWith('/sim/')) return handleControl(req, res, path);

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
    const scenario = inst.model.scenario;
    if (scenario === 'down') {
      // Only some nodes are down (the listener closes when all are): drop the connection.
      req.socket.destroy();
      return;
    }
    const body = await readBody(req);
    if (body === null) {
      send(res, httpError(413, 'http: request body too large'), { 'Node-Id': inst.model.nodeId });
      return;
    }
    if (inst.model.scenario === 'slow') {
      await sleep(slowDelayMs);
      if (closed) return;
    }
    const nodeIdHeader = { 'Node-Id': inst.model.nodeId };
    if (!hostAllowed(req.headers.host)) {
      send(res, httpError(403, 'invalid host specified'), nodeIdHeader);
      return;
    }
    let answer = route(inst, req, path, url.searchParams, body);
    if (inst.model.scenario === 'garbage' && answer.status < 300 && answer.body !== '' && answer.ok) {
      answer = garble(answer, inst.garbageCounter++);
    }
    send(res, answer, nodeIdHeader);
  }

  // -------------------------------------------------------------------------
  // control endpoint

  function state(): Record<string, unknown> {
    return {
      url: nodeBase,
      controlUrl: controlBase,
      listening: nodeServer.listening,
      scenarios: SCENARIOS,
      nodes: instances.map((i) => ({
        node: i.index,
        url: i.index === 0 ? nodeBase : `${nodeBase}/node/${i.index}`,
        nodeId: i.model.nodeId,
        scenario: i.model.scenario,
        heights: { P: i.model.height('P'), X: i.model.height('X'), C: i.model.height('C') },
        validators: opts.validators ?? 1500,
        peers: i.model.peers().length,
        l1SubnetId: i.model.l1SubnetId,
        version: i.model.profile.version,
        healthRun: !i.healthPending,
        sybilProtection: i.model.sybilProtection,
      })),
    };
  }

  async function handleControl(req: http.IncomingMessage, res: http.ServerResponse, path: string): Promise<void> {
    const json = (status: number, v: unknown): void => {
      if (res.destroyed || res.writableEnded) return;
      res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify(v) + '\n');
    };
    if (path === '/sim/state' && (req.method === 'GET' || req.method === 'HEAD')) return json(200, state());
    if (path === '/sim/scenarios' && req.method === 'GET') return json(200, { scenarios: SCENARIO_HELP });
    if (path === '/sim/scenario') {
      if (req.method === 'GET') return json(200, { scenarios: instances.map((i) => i.model.scenario) });
      if (req.method !== 'POST') return json(405, { error: 'use POST /sim/scenario with {"scenario":"<name>","node":<i>}' });
      const body = await readBody(req);
      let parsed: unknown;
      try {
        parsed = JSON.parse(body ?? '');
      } catch {
        return json(400, { error: 'body must be JSON like {"scenario":"healthy","node":0}', valid: SCENARIOS });
      }
      const p = (parsed ?? {}) as Record<string, unknown>;
      const name = p['scenario'];
      if (!isScenarioName(name)) {
        return json(400, {
          error: `unknown scenario ${JSON.stringify(name)}; valid scenarios: ${SCENARIOS.join(', ')}`,
          valid: SCENARIOS,
        });
      }
      const node = p['node'];
      if (node !== undefined && node !== null && !(typeof node === 'number' && Number.isInteger(node) && node >= 0 && node < nNodes)) {
        return json(400, { error: `node must be an integer in [0,${nNodes - 1}]` });
      }
      try {
        await setScenario(name, typeof node === 'number' ? node : undefined);
      } catch (e) {
        return json(500, { error: e instanceof Error ? e.message : String(e) });
      }
      return json(200, { scenario: name, nodes: typeof node === 'number' ? [node] : instances.map((i) => i.index) });
    }
    if (path === '/sim/restart') {
      if (req.method !== 'POST') return json(405, { error: 'use POST /sim/restart with {"node":<i>} (node optional: all nodes)' });
      const body = (await readBody(req)) ?? '';
      let parsed: unknown = {};
      if (body.trim() !== '') {
        try {
          parsed = JSON.parse(body);
        } catch {
          return json(400, { error: 'body must be empty or JSON like {"node":0}' });
        }
      }
      const p = (parsed ?? {}) as Record<string, unknown>;
      const node = p['node'];
      if (node !== undefined && node !== null && !(typeof node === 'number' && Number.isInteger(node) && node >= 0 && node < nNodes)) {
        return json(400, { error: `node must be an integer in [0,${nNodes - 1}]` });
      }
      const firstRun = p['healthFirstRunMs'];
      if (firstRun !== undefined && firstRun !== null && !(typeof firstRun === 'number' && Number.isFinite(firstRun) && firstRun >= 0 && firstRun <= MAX_TIMER_MS)) {
        return json(400, { error: `healthFirstRunMs must be a number of milliseconds in [0,${MAX_TIMER_MS}]` });
      }
      try {
        await restart(typeof node === 'number' ? node : undefined, typeof firstRun === 'number' ? { healthFirstRunMs: firstRun } : {});
      } catch (e) {
        return json(500, { error: e instanceof Error ? e.message : String(e) });
      }
      return json(200, { restarted: typeof node === 'number' ? [node] : instances.map((i) => i.index) });
    }
    return json(404, { error: 'not found; use POST /sim/scenario, POST /sim/restart or GET /sim/state' });
  }

  // -------------------------------------------------------------------------
  // servers

  const sockets = new Set<Socket>();
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
  nodeServer.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  const controlSockets = new Set<Socket>();
  const controlServer = http.createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://sim.invalid').pathname;
    handleControl(req, res, path).catch(onError(res));
  });
  controlServer.on('connection', (s: Socket) => {
    controlSockets.add(s);
    s.on('close', () => controlSockets.delete(s));
  });

  const listen = (srv: http.Server, h: string, p: number): Promise<number> =>
    new Promise((resolve, reject) => {
      const onErr = (e: Error): void => {
        srv.off('listening', onOk);
        reject(e);
      };
      const onOk = (): void => {
        srv.off('error', onErr);
        resolve((srv.address() as AddressInfo).port);
      };
      srv.once('error', onErr);
      srv.once('listening', onOk);
      srv.listen({ host: h, port: p, exclusive: true });
    });

  const closeServer = (srv: http.Server, socks: Set<Socket>): Promise<void> =>
    new Promise((resolve) => {
      if (!srv.listening) {
        for (const s of socks) s.destroy();
        resolve();
        return;
      }
      srv.close(() => resolve());
      for (const s of socks) s.destroy();
      srv.closeAllConnections?.();
    });

  const fmtHost = (h: string): string => (net.isIPv6(h) ? `[${h}]` : h);
  const startsDown = initial === 'down';
  let port: number;
  if (startsDown) {
    // Reserve a port without serving on it: bind, read the port, close.
    port = await listen(nodeServer, host, opts.port ?? 0);
    await closeServer(nodeServer, sockets);
  } else {
    port = await listen(nodeServer, host, opts.port ?? 0);
  }
  let controlPort: number;
  try {
    controlPort = await listen(controlServer, opts.controlHost ?? host, opts.controlPort ?? 0);
  } catch (e) {
    await closeServer(nodeServer, sockets);
    throw e;
  }
  const nodeBase = `http://${fmtHost(host)}:${port}`;
  const controlBase = `http://${fmtHost(opts.controlHost ?? host)}:${controlPort}`;

  async function syncListener(): Promise<void> {
    const allDown = instances.every((i) => i.model.scenario === 'down');
    if (allDown && nodeServer.listening) {
      await closeServer(nodeServer, sockets);
    } else if (!allDown && !nodeServer.listening && !closed) {
      // Re-open on the same port; retry briefly if the port is still in TIME_WAIT/used.
      let lastErr: unknown;
      for (let attempt = 0; attempt < 40; attempt++) {
        try {
          await listen(nodeServer, host, port);
          return;
        } catch (e) {
          lastErr = e;
          await sleep(50);
          if (closed) return;
        }
      }
      throw lastErr instanceof Error ? lastErr : new Error(String(lastErr));
    }
  }

  // Serialize scenario switches (listener close/re-open must not interleave).
  let chain: Promise<void> = Promise.resolve();
  function setScenario(name: ScenarioName, node?: number): Promise<void> {
    if (!isScenarioName(name)) {
      return Promise.reject(new Error(`unknown scenario ${JSON.stringify(name)}; valid: ${SCENARIOS.join(', ')}`));
    }
    if (node !== undefined && !(Number.isInteger(node) && node >= 0 && node < nNodes)) {
      return Promise.reject(new Error(`node must be an integer in [0,${nNodes - 1}]`));
    }
    const run = async (): Promise<void> => {
      const targets = node === undefined ? instances : [instances[node] as SimInstance];
      const facing = targets.map((t) => t.model.siblingFacingState());
      // Leaving 'down' is a restart of the node process: its checks start over.
      const restarted = name === 'down' ? [] : targets.filter((t) => t.model.scenario === 'down');
      for (const t of targets) t.model.setScenario(name);
      for (const t of restarted) startHealth(t);
      // Recompute the checks at once so the switch is visible without waiting a whole period; on
      // every node when the switch changes what the siblings' checks see (link, weight, upgrade).
      // A node whose checks have not run since its (re)start keeps "not yet run".
      const siblingsToo = instances.length > 1 && targets.some((t, i) => t.model.siblingFacingState() !== facing[i]);
      for (const t of siblingsToo ? instances : targets) if (!t.healthPending) t.health.run();
      await syncListener();
    };
    return serialized(run);
  }

  /** Runs `fn` after every earlier switch or restart (listener close/re-open must not interleave). */
  function serialized(fn: () => Promise<void>): Promise<void> {
    const p = chain.then(fn, fn);
    chain = p.catch(() => undefined);
    return p;
  }

  function restart(node?: number, o: { healthFirstRunMs?: number } = {}): Promise<void> {
    if (node !== undefined && !(Number.isInteger(node) && node >= 0 && node < nNodes)) {
      return Promise.reject(new Error(`node must be an integer in [0,${nNodes - 1}]`));
    }
    const firstRunMs = Math.min(MAX_TIMER_MS, Math.max(0, o.healthFirstRunMs ?? healthFirstRunMs));
    return serialized(async () => {
      const targets = node === undefined ? instances : [instances[node] as SimInstance];
      // The listener is shared: it goes down with the process only when every node restarts.
      if (targets.length === instances.length && nodeServer.listening) await closeServer(nodeServer, sockets);
      for (const t of targets) startHealth(t, firstRunMs);
      await syncListener();
    });
  }

  const sim: SimNode = {
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
      for (const t of timers) {
        clearTimeout(t);
        clearInterval(t);
      }
      timers.clear();
      for (const done of [...pendingDelays]) done();
      await Promise.all([closeServer(nodeServer, sockets), closeServer(controlServer, controlSockets)]);
    },
  };
  return sim;
}
