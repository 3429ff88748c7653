// A local network of real avalanchego nodes on loopback, started from a binary it is given, for the
// realnet suite (test/realnet/) and `npm run realnet`.
//
// 1. Identity: each node starts once on the built-in `local` network, long enough to answer
//    info.getNodeID (about 0.3 s): avalanchego makes its staking certificate and BLS key in its data
//    directory on first start, and the answer carries the NodeID and the BLS key with its proof of
//    possession. So the network's stakers are its own nodes and no key of anyone else is needed.
// 2. The network: a genesis with those nodes as stakers (genesis.ts), an upgrade file (custom network
//    ID: avalanchego refuses one for mainnet, fuji and local), every node on its own loopback ports and
//    data directory. Node i bootstraps from nodes i-1 and i-2 (around the ring): every node is dialled by
//    two others at start, so each keeps an inbound connection while any one node is away (a primary-network
//    validator with none fails its `network` health check after 10 minutes: with one beacon each, node4
//    did while node5 was cut off).
// 3. Ready: every node healthy (GET /ext/health 200) and connected to every other (info.peers).
//
// Processes are stopped by PID (SIGTERM, SIGKILL after a grace period), never by name; a process that
// outlives the test process is killed by the exit handler below. Every wait is bounded.
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../helpers/proc.js';
import { genesisDocument, upgradeDocument, type GenesisStaker } from './genesis.js';
import { rpc } from './node-rpc.js';

export interface RealnetShape {
  /** Nodes, all genesis validators of equal stake (5: one stopped leaves 80 % connected). */
  readonly nodes: number;
  /** The avalanchego release line of the binary: which upgrade file it takes. */
  readonly release: 'v1.13' | 'v1.15';
  /** The last active upgrade: helicon (mainnet since 2026-09-22), or fortuna for v1.13.x. */
  readonly activeUpTo: 'fortuna' | 'granite' | 'helicon';
}

export interface RealnetOptions extends RealnetShape {
  readonly binary: string;
  /** Custom network ID (default 88888). */
  readonly networkId?: number;
  /** Where the nodes' data goes (default: a new directory under the OS temp dir, removed by stop()). */
  readonly dir?: string;
  /** Bound on the start until every node is healthy and connected (default 300 s). */
  readonly readyTimeoutMs?: number;
  readonly log?: (line: string) => void;
}

export interface RealNode {
  /** 1-based. */
  readonly index: number;
  /** `node1` … (the exporter's target names). */
  readonly name: string;
  readonly nodeId: string;
  readonly url: string;
  readonly httpPort: number;
  readonly stakingPort: number;
  readonly dataDir: string;
  pid(): number | undefined;
  running(): boolean;
  /**
   * Starts the process (again), with the same flags and data; `isolated`: on a staking port no other node knows and
   * with a bootstrapper nobody listens at, so that it reaches no peer and none reaches it (a validator cut off from
   * its peers, as after a firewall or public-IP change), while its HTTP API answers as usual.
   */
  start(o?: { isolated?: boolean }): Promise<void>;
  /** SIGTERM by PID, SIGKILL after `graceMs`; resolves when the process has exited. */
  stop(graceMs?: number): Promise<void>;
  /** SIGSTOP / SIGCONT by PID: the process is frozen, its sockets stay open. */
  freeze(): void;
  resume(): void;
  /** The last lines of its main log (for failure messages). */
  logTail(lines?: number): string;
}

export interface RealNetwork {
  readonly networkId: number;
  readonly nodes: readonly RealNode[];
  readonly dir: string;
  /** Waits (bounded) until every running node is healthy and connected to every other running node. */
  waitReady(timeoutMs?: number): Promise<void>;
  /** Stops every node (by PID) and removes the data directory unless REALNET_KEEP is set. */
  stop(): Promise<void>;
}

const LIVE = new Set<ChildProcess>();
let exitHookInstalled = false;
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // A test process that ends without stop() (a crash, a timeout) must not leave nodes behind.
  process.once('exit', () => {
    for (const c of LIVE) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  });
}

function commonFlags(o: { httpPort: number; stakingPort: number; dataDir: string }): string[] {
  return [
    '--http-host=127.0.0.1',
    `--http-port=${o.httpPort}`,
    '--staking-host=127.0.0.1',
    `--staking-port=${o.stakingPort}`,
    '--public-ip=127.0.0.1',
    `--data-dir=${o.dataDir}`,
    `--log-dir=${join(o.dataDir, 'logs')}`,
    '--log-display-level=warn',
    // The hard limit of a CI container is often 20,000; avalanchego's default asks 32,768 and refuses to start.
    '--fd-limit=16384',
  ];
}

function spawnNode(binary: string, args: string[], logFile: string): ChildProcess {
  const fd = openSync(logFile, 'a');
  try {
    const child = spawn(binary, args, { stdio: ['ignore', fd, fd] });
    LIVE.add(child);
    child.once('exit', () => LIVE.delete(child));
    return child;
  } finally {
    closeSync(fd);
  }
}

async function stopChild(child: ChildProcess, graceMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  // A frozen process gets SIGTERM only once it runs again.
  child.kill('SIGCONT');
  child.kill('SIGTERM');
  const t = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await Promise.race([exited, new Promise((r) => setTimeout(r, graceMs + 5_000))]);
  clearTimeout(t);
}

async function sleep(ms: number): Promise<void> {
  await new Promise((r) => setTimeout(r, ms));
}

/** Step 1: each node's NodeID and BLS key, from a first start on the `local` network (in parallel). */
async function identify(binary: string, dirs: readonly string[], log: (l: string) => void): Promise<GenesisStaker[]> {
  return Promise.all(
    dirs.map(async (dataDir) => {
      mkdirSync(dataDir, { recursive: true });
      const [httpPort, stakingPort] = [await freePort(), await freePort()];
      const child = spawnNode(binary, ['--network-id=local', ...commonFlags({ httpPort, stakingPort, dataDir })], join(dataDir, 'identify.log'));
      try {
        const deadline = Date.now() + 60_000;
        for (;;) {
          if (child.exitCode !== null) throw new Error(`avalanchego exited (${child.exitCode}) before answering info.getNodeID:\n${tail(join(dataDir, 'identify.log'), 20)}`);
          try {
            const r = (await rpc(`http://127.0.0.1:${httpPort}`, '/ext/info', 'info.getNodeID')) as { nodeID: string; nodePOP: { publicKey: string; proofOfPossession: string } };
            log(`identified ${r.nodeID} (${dataDir})`);
            return { nodeID: r.nodeID, publicKey: r.nodePOP.publicKey, proofOfPossession: r.nodePOP.proofOfPossession };
          } catch (e) {
            if (Date.now() > deadline) throw new Error(`info.getNodeID not answered within 60 s: ${String(e)}`);
          }
          await sleep(100);
        }
      } finally {
        await stopChild(child, 10_000);
        // Only the keys stay: the `local` network's database is of no use to the real one.
        rmSync(join(dataDir, 'db'), { recursive: true, force: true });
      }
    }),
  );
}

function tail(file: string, lines: number): string {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-lines - 1).join('\n');
  } catch {
    return '(no log)';
  }
}

export async function startRealNetwork(o: RealnetOptions): Promise<RealNetwork> {
  installExitHook();
  const log = o.log ?? (() => {});
  const networkId = o.networkId ?? 88888;
  const made = o.dir === undefined;
  const dir = o.dir ?? mkdtempSync(join(tmpdir(), 'avax-realnet-'));
  const dataDirs = Array.from({ length: o.nodes }, (_, i) => join(dir, `node${i + 1}`));
  const stakers = await identify(o.binary, dataDirs, log);
  // A start a week back, as a validator that has run for a while: the genesis stakes are current (they last a
  // year from it), the chain time is not ahead of the wall clock, and the week before the nodes first ran counts
  // as up (avalanchego's uptime of a new validator), so a fault of minutes costs what it costs a real one: with
  // a start 30 minutes back, three minutes of faults put a node's uptime at 91 % and paged AvalancheUptimeAtRisk.
  const startTime = Math.floor(Date.now() / 1000) - 7 * 86_400;
  const genesisFile = join(dir, 'genesis.json');
  const upgradeFile = join(dir, 'upgrade.json');
  writeFileSync(genesisFile, JSON.stringify(genesisDocument({ networkId, stakers, startTime }), null, 1));
  writeFileSync(upgradeFile, JSON.stringify(upgradeDocument(o.release, o.activeUpTo), null, 1));
  const ports: { httpPort: number; stakingPort: number }[] = [];
  for (let i = 0; i < o.nodes; i++) ports.push({ httpPort: await freePort(), stakingPort: await freePort() });

  const nodes: RealNode[] = dataDirs.map((dataDir, i) => {
    const { httpPort, stakingPort } = ports[i]!;
    const beacons = [...new Set([(i + o.nodes - 1) % o.nodes, (i + o.nodes - 2) % o.nodes])].filter((b) => b !== i);
    const args = [
      `--network-id=${networkId}`,
      `--genesis-file=${genesisFile}`,
      `--upgrade-file=${upgradeFile}`,
      ...commonFlags({ httpPort, stakingPort, dataDir }),
      `--bootstrap-ips=${beacons.map((b) => `127.0.0.1:${ports[b]!.stakingPort}`).join(',')}`,
      `--bootstrap-ids=${beacons.map((b) => stakers[b]!.nodeID).join(',')}`,
      '--index-enabled=true',
      '--api-admin-enabled=true',
      // avalanchego fails a primary-network validator's `network` check when none of its connections was dialed by
      // the other side (network/no_ingress_conn_alert.go, after a 10-minute grace). On mainnet (hundreds of peers)
      // that means a firewall; on five loopback nodes it is only which side dialed first, and it stays: a node whose
      // one inbound connection came from a peer that was then stopped or frozen kept failing it for good (its 4
      // peers connected; the network never became ready again, 2026-11-28). The simulated node keeps the check.
      '--network-no-ingress-connections-grace-period=8760h',
      // The router's check fails above 1,024 outstanding consensus requests (or one outstanding for 5 minutes).
      // With one of five validators stopped, every poll of the others includes it (k = 20 samples over five) and
      // waits on it until its timeout, and the poll rate rose 14-fold (measured here): a healthy peer of the stopped
      // node failed its router check once, within two minutes (CI run of 2026-11-28 18:10Z). Among mainnet's ~1,500
      // validators one stopped peer is in few polls. Raised so that the test sees the fault, not the network's size.
      '--router-health-max-outstanding-requests=1000000',
    ];
    let child: ChildProcess | undefined;
    const logFile = join(dataDir, 'process.log');
    return {
      index: i + 1,
      name: `node${i + 1}`,
      nodeId: stakers[i]!.nodeID,
      url: `http://127.0.0.1:${httpPort}`,
      httpPort,
      stakingPort,
      dataDir,
      pid: () => (child && child.exitCode === null && child.signalCode === null ? child.pid : undefined),
      running: () => child !== undefined && child.exitCode === null && child.signalCode === null,
      async start(s = {}) {
        if (child && child.exitCode === null && child.signalCode === null) throw new Error(`node${i + 1} is already running (pid ${child.pid})`);
        let a = args;
        if (s.isolated) {
          const [hidden, nowhere] = [await freePort(), await freePort()];
          a = args.map((x) =>
            x.startsWith('--staking-port=') ? `--staking-port=${hidden}` : x.startsWith('--bootstrap-ips=') ? `--bootstrap-ips=127.0.0.1:${nowhere}` : x.startsWith('--bootstrap-ids=') ? `--bootstrap-ids=${stakers[(i + 1) % o.nodes]!.nodeID}` : x,
          );
        }
        child = spawnNode(o.binary, a, logFile);
        log(`node${i + 1} started${s.isolated ? ' cut off from its peers' : ''}, pid ${child.pid}, ${`http://127.0.0.1:${httpPort}`}`);
      },
      async stop(graceMs = 15_000) {
        if (child) await stopChild(child, graceMs);
        log(`node${i + 1} stopped`);
      },
      freeze() {
        if (!child?.pid) throw new Error(`node${i + 1} is not running`);
        process.kill(child.pid, 'SIGSTOP');
        log(`node${i + 1} frozen (SIGSTOP ${child.pid})`);
      },
      resume() {
        if (!child?.pid) throw new Error(`node${i + 1} is not running`);
        process.kill(child.pid, 'SIGCONT');
        log(`node${i + 1} resumed (SIGCONT ${child.pid})`);
      },
      logTail: (lines = 30) => `${tail(join(dataDir, 'logs', 'main.log'), lines)}\n--- process output ---\n${tail(logFile, 10)}`,
    };
  });

  const network: RealNetwork = {
    networkId,
    nodes,
    dir,
    async waitReady(timeoutMs = o.readyTimeoutMs ?? 300_000) {
      const deadline = Date.now() + timeoutMs;
      const up = nodes.filter((n) => n.running());
      let last = new Map<string, string>();
      for (;;) {
        const startedAfterDeadline = Date.now() >= deadline;
        const states = await Promise.all(up.map(async (n) => [n.name, await readiness(n, up.length - 1)] as const));
        last = new Map(states);
        if (states.every(([, s]) => s === 'ready')) return;
        for (const n of up) if (!n.running()) throw new Error(`${n.name} exited while the network started:\n${n.logTail()}`);
        if (startedAfterDeadline) break;
        await sleep(1_000);
      }
      const lines = [...last].map(([name, s]) => `  ${name}: ${s}`).join('\n');
      const worst = nodes.find((n) => last.get(n.name) !== 'ready');
      throw new Error(`the network was not ready within ${timeoutMs / 1000} s:\n${lines}\n${worst ? `${worst.name}'s log:\n${worst.logTail()}` : ''}`);
    },
    async stop() {
      await Promise.all(nodes.map((n) => n.stop()));
      if (made && !process.env['REALNET_KEEP']) rmSync(dir, { recursive: true, force: true });
    },
  };
  for (const n of nodes) await n.start();
  try {
    await network.waitReady();
  } catch (e) {
    await network.stop();
    throw e;
  }
  log(`network ${networkId} ready: ${nodes.length} nodes`);
  return network;
}

/** 'ready', or what the node is still missing. */
async function readiness(n: RealNode, peersWanted: number): Promise<string> {
  try {
    const h = await fetch(`${n.url}/ext/health`, { signal: AbortSignal.timeout(3_000) });
    if (h.status !== 200) {
      // avalanchego's api/health/result.go: a failing check's `error` is its error string.
      const body = (await h.json().catch(() => ({}))) as { checks?: Record<string, { error?: string }> };
      const failing = Object.entries(body.checks ?? {}).filter(([, c]) => c.error).map(([k, c]) => `${k}: ${c.error}`);
      return `unhealthy (${failing.join('; ').slice(0, 300) || `HTTP ${h.status}`})`;
    }
    const peers = (await rpc(n.url, '/ext/info', 'info.peers')) as { numPeers: string };
    if (Number(peers.numPeers) < peersWanted) return `${peers.numPeers} of ${peersWanted} peers`;
    return 'ready';
  } catch (e) {
    return `not answering (${String(e).slice(0, 120)})`;
  }
}
