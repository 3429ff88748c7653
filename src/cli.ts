#!/usr/bin/env node
/**
 * avalanche-exporter command line: `run` (default), `demo`, `sim`, `check-config`, `healthcheck`, `generate`.
 * Exit codes: 0 clean stop, 1 runtime failure (e.g. address in use), 2 invalid configuration or usage.
 *
 * Only the Node.js version check is imported statically: the exporter's modules (undici 7 among them)
 * load after it, so an old Node.js gets a sentence, not a stack trace.
 */
import type { LoadedConfig } from './config/load.js';
import type { Exporter } from './main.js';
import type { Logger } from 'pino';
import { nodeVersionProblem } from './runtime-check.js';

const SUBCOMMANDS = ['run', 'demo', 'sim', 'check-config', 'healthcheck', 'generate'] as const;

const SUBCOMMAND_HELP: Record<string, string> = {
  run: 'Watches the node(s) and serves /metrics (the default when no subcommand is given).',
  demo: 'Starts the simulated avalanchego node and the exporter against it (loopback only: 127.0.0.1:10650 unless\n--web.listen-address says otherwise). Stops on SIGTERM, SIGINT, or when the process that started it exits.',
  'check-config': 'Validates the configuration (flags, environment, --config.file, --web.config.file) and exits:\n0 valid, 2 invalid. Nothing is started and no node is called.',
  generate: 'Writes alert rules and Grafana dashboards fitted to monitoring.yaml (selector, thresholds, ...). See: generate --help.',
  healthcheck:
    'GETs /healthz of the exporter configured by the same flags, environment and files (listen address, TLS\nfrom --web.config.file) and exits 0 if it answers 200, 1 otherwise. With --pid N, the flags of the running\nexporter N come first (the Docker HEALTHCHECK runs `healthcheck --pid 1`).',
};

async function help(sub?: string): Promise<string> {
  const { flagHelp } = await import('./config/help.js');
  const { COLLECTORS } = await import('./collectors/index.js');
  const { VERSION } = await import('./version.js');
  const intro = sub && SUBCOMMAND_HELP[sub] ? `avalanche-exporter ${sub}: ${SUBCOMMAND_HELP[sub]}\n\n` : '';
  return `avalanche-exporter ${VERSION}: Prometheus exporter for Avalanche nodes

${intro}Usage:
  avalanche-exporter [run] [flags]          watch the node(s) and serve /metrics
  avalanche-exporter demo [flags]           start the simulated node and the exporter against it
  avalanche-exporter sim [flags]            start the simulated node alone (see: sim --help)
  avalanche-exporter check-config [flags]   validate the configuration and exit (0 valid, 2 invalid)
  avalanche-exporter healthcheck [flags]    GET /healthz of the configured exporter (exit 0 healthy, 1 not)
  avalanche-exporter generate --out DIR [--config monitoring.yaml]
                                            write alert rules and dashboards fitted to your setup (see: generate --help)
  avalanche-exporter --version | --help     (--help also works after every subcommand)

${flagHelp(COLLECTORS)}
demo only: ${DEMO_SIM_FLAGS.map((f) => `--sim.${f} ${f === 'scenario' ? 'NAME' : f === 'version' ? '1.13.5|1.14.2' : 'N'}`).join(', ')}
`;
}

/**
 * loadConfig, and the --web.config.file it names checked too (the server owns that format), so that
 * `run`, `demo`, `check-config` and a reload (SIGHUP, POST /-/reload) report a bad one at once.
 */
async function configLoader(): Promise<(argv: readonly string[]) => LoadedConfig> {
  const { loadConfig } = await import('./config/load.js');
  const { loadWebConfig } = await import('./server/web-config.js');
  return (argv) => {
    const loaded = loadConfig({ argv });
    if (loaded.config.web.configFile) loadWebConfig(loaded.config.web.configFile);
    return loaded;
  };
}

async function run(argv: string[], extra?: { banner?: (e: Exporter) => void; onStop?: () => Promise<void>; stopWhenOrphaned?: boolean }): Promise<void> {
  const load = await configLoader();
  const { createLogger } = await import('./logger.js');
  const { startExporter } = await import('./main.js');
  const { allInterfacesNotice } = await import('./server/listen-notice.js');
  const { config } = load(argv);
  // Process-wide V8 flags (src/runtime-flags.ts), before the first collection: they take effect for the
  // heap that holds the answers and before undici compiles its WebAssembly HTTP parser.
  const { v8Flags } = await import('./runtime-flags.js');
  const { optimizesForSize } = await import('./config/settings.js');
  const { targetsOfThisShard } = await import('./config/targets.js');
  const flags = v8Flags(config.runtime, optimizesForSize(config.runtime.optimizeForSize, targetsOfThisShard(config).length));
  if (flags.length > 0) (await import('node:v8')).setFlagsFromString(flags.join(' '));
  const logger = createLogger(config.log.level);
  const exporter = await startExporter({
    config,
    logger,
    reloadConfig: () => load(argv).config,
    enableReloadEndpoint: config.web.enableLifecycle,
  });
  if (exporter.servingThread && config.runtime.collectingNiceness > 0) await lowerCollectingThreads(exporter.servingThread.tid, config.runtime.collectingNiceness, logger);
  const served = exporter.url ? new URL(exporter.url) : undefined;
  const port = served ? Number(served.port || (served.protocol === 'https:' ? 443 : 80)) : undefined;
  const notice = port ? allInterfacesNotice(config.web.listenAddress, port) : undefined;
  if (notice) logger.info({ event: 'listening_all_interfaces', address: config.web.listenAddress, interfaces: notice.interfaces }, notice.message);
  extra?.banner?.(exporter);
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ event: 'shutdown', signal }, 'stopping');
    const hard = setTimeout(() => process.exit(0), 10_000);
    hard.unref();
    await exporter.stop();
    await extra?.onStop?.();
    logger.flush?.();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGHUP', () => {
    exporter.reload().catch((err: Error) => logger.error({ event: 'reload_failed', err: err.message }, 'configuration reload failed; keeping the running configuration'));
  });
  process.on('unhandledRejection', (err) => logger.error({ event: 'unhandled_rejection', err: String(err) }, 'unhandled rejection'));
  if (extra?.stopWhenOrphaned) {
    // A wrapper that dies without passing its signal on (a shell between npm and node, a killed
    // terminal) re-parents this process; the demo must not outlive the command that started it.
    const parent = process.ppid;
    setInterval(() => {
      if (process.ppid !== parent) void stop('parent exited');
    }, 500).unref();
  }
}

/**
 * --runtime.collecting-niceness (src/runtime-priority.ts): every thread but the serving thread `tid`
 * a few steps nicer, once, process-wide; one log line says what was done or why nothing was.
 */
async function lowerCollectingThreads(tid: number | undefined, step: number, logger: Logger): Promise<void> {
  const { lowerCollectingThreads: lower } = await import('./runtime-priority.js');
  const r = tid === undefined ? { raised: [], failed: [], reason: 'the serving thread has no thread id (per-thread niceness is Linux only)' } : await lower(tid, step);
  if (r.niceness === undefined) logger.info({ event: 'collecting_niceness', step, changed: false, reason: r.reason }, `collecting threads keep their priority: ${r.reason}`);
  else if (r.failed.length > 0) logger.warn({ event: 'collecting_niceness', servingThread: tid, niceness: r.niceness, raised: r.raised, failed: r.failed }, 'some collecting threads could not be made nicer');
  else logger.info({ event: 'collecting_niceness', servingThread: tid, niceness: r.niceness, raised: r.raised }, `collecting threads run at niceness ${r.niceness}, below the serving thread`);
}

/** `--sim.NAME` flags of `demo`. */
const DEMO_SIM_FLAGS = ['scenario', 'seed', 'validators', 'peers', 'version'] as const;

async function demo(argv: string[]): Promise<void> {
  const { ConfigError, envName } = await import('./config/load.js');
  const { didYouMean } = await import('./config/suggest.js');
  const simArgs: Record<string, string> = {};
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const m = /^--sim\.([a-z-]+)(?:=(.*))?$/.exec(a);
    if (m) {
      if (!(DEMO_SIM_FLAGS as readonly string[]).includes(m[1]!)) {
        throw new ConfigError(`unknown flag --sim.${m[1]} (demo takes ${DEMO_SIM_FLAGS.map((f) => `--sim.${f}`).join(', ')})${didYouMean(m[1]!, DEMO_SIM_FLAGS, (f) => `--sim.${f}`)}`);
      }
      const v = m[2] ?? argv[++i];
      if (v === undefined) throw new ConfigError(`flag --sim.${m[1]} needs a value`);
      simArgs[m[1]!] = v;
    } else rest.push(a);
  }
  const { startSimNode, SCENARIOS, SIM_VERSIONS, isSimVersion } = await import('@avalanche-exporter/simulated-node');
  const scenario = simArgs['scenario'] ?? 'healthy';
  if (!(SCENARIOS as readonly string[]).includes(scenario)) {
    throw new ConfigError(`--sim.scenario: expected one of ${SCENARIOS.join(', ')}, got ${JSON.stringify(scenario)}${didYouMean(scenario, SCENARIOS)}`);
  }
  const version = simArgs['version'];
  if (version !== undefined && !isSimVersion(version)) {
    throw new ConfigError(`--sim.version: expected one of ${SIM_VERSIONS.join(', ')}, got ${JSON.stringify(version)}${didYouMean(version, SIM_VERSIONS)}`);
  }
  const num = (k: string) => {
    const v = simArgs[k];
    if (v === undefined) return undefined;
    if (!/^\d+$/.test(v)) throw new ConfigError(`--sim.${k}: expected a whole number, got ${JSON.stringify(v)}`);
    return Number(v);
  };
  // Validate the exporter's flags before starting anything.
  const load = await configLoader();
  const hasUrl = rest.some((a) => a.startsWith('--node.url'));
  // The demo serves on loopback unless told otherwise: it is for the person at this machine.
  const listenGiven =
    rest.some((a) => a.startsWith('--web.listen-address') || a.startsWith('--config.file')) ||
    !!process.env[envName('web.listen-address')] ||
    !!process.env[envName('config.file')];
  const listen = listenGiven ? [] : ['--web.listen-address', '127.0.0.1:10650'];
  load([...listen, ...rest]);
  const sim = await startSimNode({
    scenario: scenario as (typeof SCENARIOS)[number],
    seed: num('seed'),
    validators: num('validators'),
    peers: num('peers'),
    healthIntervalMs: 5000,
    healthFirstRunMs: 5000, // like a real node: checks "not yet run" for one health period after a (re)start
    version: version as import('@avalanche-exporter/simulated-node').SimVersion | undefined, // --sim.version: one of SIM_VERSIONS (simulated-node/src/versions.ts)
  });
  const args = hasUrl ? [...listen, ...rest] : ['--node.url', sim.url, '--node.name', 'demo-node', ...listen, ...rest];
  try {
    await run(args, {
      banner: (e) => {
        process.stderr.write(
          `\navalanche-exporter demo\n  simulated node:  ${sim.url}  (scenario ${scenario})\n  exporter:        ${e.url}/metrics\n  landing page:    ${e.url}/\n` +
            `  switch scenario: curl -X POST ${sim.controlUrl}/sim/scenario -H 'content-type: application/json' -d '{"scenario":"bootstrapping"}'\n` +
            `  scenarios:       ${SCENARIOS.join(', ')}\n  stop:            Ctrl-C\n\n`,
        );
      },
      onStop: () => sim.close(),
      stopWhenOrphaned: true,
    });
  } catch (err) {
    await sim.close();
    throw err;
  }
}

async function checkConfig(argv: string[]): Promise<void> {
  const load = await configLoader();
  const { redactUrl } = await import('./redact.js');
  const { config, configFile } = load(argv);
  const { inShard } = await import('./config/shard.js');
  const { defaultTargetName } = await import('./config/schema.js');
  const sharded = config.shard.total > 1;
  const lines = config.targets.map((t) => {
    const other = sharded && !inShard(t.name ?? defaultTargetName(t.url), config.shard) ? ' (another shard)' : '';
    return `  - ${t.name ?? '(default name)'}: ${redactUrl(t.url)}${t.reference ? ' (reference)' : ''}${other}`;
  });
  const mine = sharded ? config.targets.filter((t) => inShard(t.name ?? defaultTargetName(t.url), config.shard)).length : config.targets.length;
  const shardText = sharded ? `; shard ${config.shard.index} of ${config.shard.total} collects ${mine}` : '';
  process.stdout.write(`configuration OK${configFile ? ` (${configFile})` : ''}: ${config.targets.length} target(s)${shardText}\n${lines.join('\n')}\n`);
}

/**
 * `generate`: alert rules and dashboards from src/monitoring. Loaded only here (lazily), so `run` never
 * loads the Grafana SDK they are built with; their problems exit 2 like a configuration error.
 */
async function generate(argv: string[]): Promise<void> {
  const { ConfigError } = await import('./config/load.js');
  const { generateCommand, MonitoringSettingsError } = await import('./monitoring/command.js');
  try {
    await generateCommand(argv);
  } catch (err) {
    if (err instanceof MonitoringSettingsError) throw new ConfigError(err.message);
    throw err;
  }
}

async function healthcheck(argv: string[]): Promise<void> {
  const { ConfigError, loadConfig } = await import('./config/load.js');
  const { exporterArgsOfPid, probeHealth } = await import('./server/healthcheck.js');
  try {
    // `--pid N`: take the flags of the running exporter N (Docker: PID 1), then this command's own.
    const at = argv.indexOf('--pid');
    let args = argv;
    if (at >= 0) {
      const pid = argv[at + 1];
      if (!pid || !/^\d+$/.test(pid)) throw new ConfigError('--pid: expected a process ID, e.g. --pid 1');
      args = [...exporterArgsOfPid(pid), ...argv.slice(0, at), ...argv.slice(at + 2)];
    }
    const { config } = loadConfig({ argv: args });
    const r = await probeHealth(config.web);
    process.stdout.write(`${r.message}\n`);
    process.exit(r.ok ? 0 : 1);
  } catch (err) {
    // Docker reserves exit code 2 of a health check: every failure here is "unhealthy" (1).
    process.stderr.write(`avalanche-exporter healthcheck: ${(err as Error).message}\n`);
    process.exit(1);
  }
}

function wantsHelp(args: readonly string[]): boolean {
  return args.some((a) => a === '--help' || a === '-h');
}

export async function main(argv: string[]): Promise<void> {
  const problem = nodeVersionProblem(process.versions.node);
  if (problem) {
    process.stderr.write(`${problem}\n`);
    process.exit(1);
  }
  const { ConfigError } = await import('./config/load.js');
  const [first, ...rest] = argv;
  const sub = (SUBCOMMANDS as readonly string[]).includes(first ?? '') ? first! : undefined;
  try {
    if (first === '--help' || first === '-h' || first === 'help') {
      process.stdout.write(await help(rest[0]));
      return;
    }
    if (first === '--version' || first === 'version') {
      const { VERSION } = await import('./version.js');
      process.stdout.write(`avalanche-exporter ${VERSION}\n`);
      return;
    }
    if (sub === 'sim') {
      const { simMain } = await import('@avalanche-exporter/simulated-node');
      return await simMain(rest);
    }
    if (sub === 'generate') return await generate(rest); // has its own --help
    // `--help` anywhere after the subcommand (or among run's flags) prints the help, never "unknown flag".
    if (wantsHelp(sub ? rest : argv)) {
      process.stdout.write(await help(sub ?? 'run'));
      return;
    }
    if (sub === 'demo') return await demo(rest);
    if (sub === 'check-config') return await checkConfig(rest);
    if (sub === 'healthcheck') return await healthcheck(rest);
    if (sub === 'run') return await run(rest);
    if (first !== undefined && !first.startsWith('-')) {
      const { didYouMean } = await import('./config/suggest.js');
      throw new ConfigError(`unknown subcommand ${JSON.stringify(first)} (subcommands: ${SUBCOMMANDS.join(', ')}; flags start with --)${didYouMean(first, SUBCOMMANDS)}`);
    }
    return await run(argv);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`avalanche-exporter: ${err.message}\n`);
      process.exit(2);
    }
    const e = err as NodeJS.ErrnoException & { hostname?: string };
    if (e.code === 'EADDRINUSE' || e.code === 'EACCES' || e.code === 'EADDRNOTAVAIL') {
      process.stderr.write(`avalanche-exporter: cannot listen: ${e.message} (web.listenAddress, --web.listen-address)\n`);
      process.exit(1);
    }
    if (e.code === 'ENOTFOUND' || e.code === 'EAI_AGAIN') {
      process.stderr.write(`avalanche-exporter: cannot listen: host ${JSON.stringify(e.hostname ?? '')} not found (web.listenAddress, --web.listen-address)\n`);
      process.exit(2);
    }
    process.stderr.write(`avalanche-exporter: ${e.stack ?? String(err)}\n`);
    process.exit(1);
  }
}

void main(process.argv.slice(2));
