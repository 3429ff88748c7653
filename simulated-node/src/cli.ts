// `avalanche-exporter sim`: runs the simulated avalanchego node alone (flags, help, start banner).
// Part of the simulated avalanchego node, an independent oracle ON PURPOSE: this package shares no
// code with the exporter (src/) and has its own CB58, JSON-RPC envelope and constants, so
// that a bug in the exporter's decoding cannot hide behind the same bug here. Do not "fix" this
// duplication (test/sim/independence.test.ts fails on any import from outside this package).
import { SCENARIOS, SCENARIO_HELP, SIM_VERSIONS, isScenarioName, isSimVersion, startSimNode, type SimNode, type SimOptions } from './server.js';
import { DEFAULT_SIM_VERSION } from './versions.js';

export const SIM_DEFAULT_LISTEN = '127.0.0.1:9650';
export const SIM_DEFAULT_CONTROL = '127.0.0.1:9651';
/** avalanchego's --health-check-frequency default. */
export const SIM_DEFAULT_HEALTH_INTERVAL_MS = 30_000;

export interface SimMainIo {
  stdout?: (s: string) => void;
  stderr?: (s: string) => void;
  /** stops the simulator (instead of SIGINT/SIGTERM); for tests */
  signal?: AbortSignal;
  /** called once the servers listen; for tests */
  onStarted?: (sim: SimNode) => void;
}

const HELP = `Usage: avalanche-exporter sim [flags]

Runs a simulated avalanchego node (v1.15.0 wire behaviour by default, or an older one; mainnet-like data) for
dashboards, alert rehearsals and tests. Scenarios can be switched at runtime.

Flags:
  --listen-address HOST:PORT   node API address (default ${SIM_DEFAULT_LISTEN})
  --control-address HOST:PORT  control endpoint address (default ${SIM_DEFAULT_CONTROL})
  --seed N                     seed; all data is deterministic from it (default 1)
  --validators N               primary-network validators (default 1500)
  --peers N                    connected peers (default 1700)
  --scenario NAME              initial scenario (default healthy)
  --health-interval DURATION   health checks recomputed every DURATION (default 30s)
  --health-first-run DURATION  after a (re)start every check is "not yet run" (GET /ext/health 503)
                               until the first run DURATION later (default: the health interval,
                               like avalanchego's --health-check-frequency)
  --sybil-protection BOOL      false: a non-validator's info.uptime error is the local/test-network
                               one ("... start time not found"); default true (mainnet, Fuji)
  --slow-delay DURATION        answer delay of the 'slow' scenario (default 7s)
  --node-version VERSION       avalanchego version to answer as: ${SIM_VERSIONS.join(', ')} (default ${DEFAULT_SIM_VERSION})
  --nodes N                    nodes under /node/<i>/ext/..., validator peers of each other (default 1)
  --block-rates P=R,C=R,X=R    blocks per second per chain (default P=0.2,C=0.5,X=0.1)
  -h, --help                   show this help

DURATION is a number with a unit: 500ms, 30s, 1m, 1h30m.

Scenarios:
${SCENARIOS.map((s) => `  ${s.padEnd(24)}${SCENARIO_HELP[s]}`).join('\n')}

Control endpoint:
  POST /sim/scenario {"scenario":"<name>","node":<i>}   (node optional: all nodes)
  POST /sim/restart  {"node":<i>}                       restart (health "not yet run" again; node optional: all)
  GET  /sim/state
`;

class FlagError extends Error {}

/** Go-style duration ("500ms", "30s", "1m30s") to milliseconds. */
export function parseDuration(s: string): number | null {
  const re = /(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/y;
  const unit: Record<string, number> = { ns: 1e-6, us: 1e-3, µs: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
  if (s === '' || s === '0') return s === '0' ? 0 : null;
  let total = 0;
  re.lastIndex = 0;
  let pos = 0;
  while (pos < s.length) {
    re.lastIndex = pos;
    const m = re.exec(s);
    if (!m) return null;
    total += Number(m[1]) * (unit[m[2] as string] as number);
    pos = re.lastIndex;
  }
  return total;
}

/** "host:port", "[v6]:port" or ":port" (loopback). */
export function parseAddress(s: string): { host: string; port: number } | null {
  let host: string;
  let portStr: string;
  const v6 = /^\[([^\]]+)\]:(\d+)$/.exec(s);
  if (v6) {
    host = v6[1] as string;
    portStr = v6[2] as string;
  } else {
    const i = s.lastIndexOf(':');
    if (i < 0 || s.indexOf(':') !== i) return null;
    host = s.slice(0, i) || '127.0.0.1';
    portStr = s.slice(i + 1);
  }
  if (!/^\d+$/.test(portStr)) return null;
  const port = Number(portStr);
  if (port > 65535) return null;
  if (!/^[A-Za-z0-9.\-:]+$/.test(host)) return null;
  return { host, port };
}

function intFlag(flag: string, v: string, min: number, max: number): number {
  if (!/^\d+$/.test(v) || Number(v) < min || Number(v) > max) {
    throw new FlagError(`invalid value for ${flag}: ${JSON.stringify(v)} (expected an integer in [${min}, ${max}])`);
  }
  return Number(v);
}

interface Parsed {
  help: boolean;
  listen: { host: string; port: number };
  control: { host: string; port: number };
  options: SimOptions;
}

export function parseSimArgs(argv: string[]): Parsed {
  const args = argv[0] === 'sim' ? argv.slice(1) : [...argv];
  const out: Parsed = {
    help: false,
    listen: parseAddress(SIM_DEFAULT_LISTEN) as { host: string; port: number },
    control: parseAddress(SIM_DEFAULT_CONTROL) as { host: string; port: number },
    options: {},
  };
  const valued = new Set([
    '--listen-address',
    '--control-address',
    '--seed',
    '--validators',
    '--peers',
    '--scenario',
    '--health-interval',
    '--health-first-run',
    '--sybil-protection',
    '--slow-delay',
    '--nodes',
    '--node-version',
    '--block-rates',
  ]);
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (a === '-h' || a === '--help') {
      out.help = true;
      continue;
    }
    let flag = a;
    let value: string | undefined;
    const eq = a.indexOf('=');
    if (a.startsWith('--') && eq > 0) {
      flag = a.slice(0, eq);
      value = a.slice(eq + 1);
    }
    if (!flag.startsWith('-')) throw new FlagError(`unexpected argument ${JSON.stringify(a)}`);
    if (!valued.has(flag)) throw new FlagError(`unknown flag ${flag} (see --help)`);
    if (value === undefined) {
      value = args[++i];
      if (value === undefined) throw new FlagError(`flag ${flag} needs a value`);
    }
    switch (flag) {
      case '--listen-address':
      case '--control-address': {
        const addr = parseAddress(value);
        if (!addr) throw new FlagError(`invalid value for ${flag}: ${JSON.stringify(value)} (expected HOST:PORT, e.g. 127.0.0.1:9650)`);
        if (flag === '--listen-address') out.listen = addr;
        else out.control = addr;
        break;
      }
      case '--seed':
        out.options.seed = intFlag(flag, value, 0, 2 ** 32 - 1);
        break;
      case '--validators':
        out.options.validators = intFlag(flag, value, 1, 100_000);
        break;
      case '--peers':
        out.options.peers = intFlag(flag, value, 0, 100_000);
        break;
      case '--nodes':
        out.options.nodes = intFlag(flag, value, 1, 256);
        break;
      case '--scenario':
        if (!isScenarioName(value)) {
          throw new FlagError(`invalid value for --scenario: ${JSON.stringify(value)} (valid: ${SCENARIOS.join(', ')})`);
        }
        out.options.scenario = value;
        break;
      case '--health-interval':
      case '--health-first-run':
      case '--slow-delay': {
        const ms = parseDuration(value);
        const min = flag === '--health-interval' ? 1 : 0;
        if (ms === null || ms < min || ms > 24 * 3_600_000) {
          throw new FlagError(`invalid value for ${flag}: ${JSON.stringify(value)} (expected a duration such as 500ms or 30s)`);
        }
        if (flag === '--health-interval') out.options.healthIntervalMs = ms;
        else if (flag === '--health-first-run') out.options.healthFirstRunMs = ms;
        else out.options.slowDelayMs = ms;
        break;
      }
      case '--node-version':
        if (!isSimVersion(value)) {
          throw new FlagError(`invalid value for --node-version: ${JSON.stringify(value)} (valid: ${SIM_VERSIONS.join(', ')})`);
        }
        out.options.version = value;
        break;
      case '--sybil-protection':
        if (value !== 'true' && value !== 'false') {
          throw new FlagError(`invalid value for --sybil-protection: ${JSON.stringify(value)} (expected true or false)`);
        }
        out.options.sybilProtection = value === 'true';
        break;
      case '--block-rates': {
        const rates: { P?: number; C?: number; X?: number } = {};
        for (const part of value.split(',')) {
          const m = /^([PCX])=(\d+(?:\.\d+)?)$/.exec(part.trim());
          if (!m) throw new FlagError(`invalid value for --block-rates: ${JSON.stringify(value)} (expected e.g. P=0.2,C=0.5,X=0.1)`);
          rates[m[1] as 'P' | 'C' | 'X'] = Number(m[2]);
        }
        out.options.blockRates = rates;
        break;
      }
      default:
        throw new FlagError(`unknown flag ${flag}`);
    }
  }
  // Like a real node: the first health run one health period after start (startSimNode's own
  // default is 5 ms, for tests).
  out.options.healthFirstRunMs ??= out.options.healthIntervalMs ?? SIM_DEFAULT_HEALTH_INTERVAL_MS;
  return out;
}

export async function simMain(argv: string[], io: SimMainIo = {}): Promise<void> {
  const stdout = io.stdout ?? ((s: string) => process.stdout.write(s));
  const stderr = io.stderr ?? ((s: string) => process.stderr.write(s));
  let parsed: Parsed;
  try {
    parsed = parseSimArgs(argv);
  } catch (e) {
    if (e instanceof FlagError) {
      stderr(`avalanche-exporter sim: ${e.message}\n`);
      process.exitCode = 2;
      return;
    }
    throw e;
  }
  if (parsed.help) {
    stdout(HELP);
    return;
  }

  let sim: SimNode;
  try {
    sim = await startSimNode({
      ...parsed.options,
      host: parsed.listen.host,
      port: parsed.listen.port,
      controlHost: parsed.control.host,
      controlPort: parsed.control.port,
    });
  } catch (e) {
    stderr(`avalanche-exporter sim: cannot start: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exitCode = 1;
    return;
  }

  const o = parsed.options;
  const nodes = o.nodes ?? 1;
  const lines = [
    `avalanche-exporter sim: simulated avalanchego/${o.version ?? DEFAULT_SIM_VERSION} node (seed ${o.seed ?? 1}, ${o.validators ?? 1500} validators, ${o.peers ?? 1700} peers, scenario ${sim.scenario()})`,
    `  node API   ${sim.url}   ${sim.nodeId(0)}`,
  ];
  for (let i = 1; i < nodes; i++) lines.push(`  node ${i}     ${sim.nodeUrl(i)}   ${sim.nodeId(i)}`);
  if (nodes > 1) lines.push(`  (node 0 is also served at ${sim.nodeUrl(0)})`);
  lines.push(`  L1 subnet  ${sim.l1SubnetId}`);
  lines.push(`  control    ${sim.controlUrl}   (GET /sim/state)`);
  lines.push(`  health     first run ${o.healthFirstRunMs ?? 0} ms after start (until then GET /ext/health answers 503 "not yet run")`);
  lines.push('');
  lines.push('Switch scenario:');
  lines.push(
    `  curl -s -X POST ${sim.controlUrl}/sim/scenario -H 'content-type: application/json' -d '{"scenario":"bootstrapping"}'`,
  );
  lines.push(`Scenarios: ${SCENARIOS.join(', ')}`);
  if (!['127.0.0.1', '::1', 'localhost'].includes(parsed.listen.host)) {
    lines.push(`warning: the node API listens on ${parsed.listen.host}, not on loopback`);
  }
  lines.push('Press Ctrl-C to stop.');
  stdout(lines.join('\n') + '\n');
  io.onStarted?.(sim);

  await new Promise<void>((resolve) => {
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      io.signal?.removeEventListener('abort', stop);
      resolve();
    };
    if (io.signal) {
      if (io.signal.aborted) return stop();
      io.signal.addEventListener('abort', stop);
    } else {
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
    }
  });
  await sim.close();
  stdout('avalanche-exporter sim: stopped\n');
}
