#!/usr/bin/env node
/**
 * avalanche-exporter command line: `run` (default), `demo`, `sim`, `check-config`.
 * Exit codes: 0 clean stop, 1 runtime failure (e.g. address in use), 2 invalid configuration or usage.
 */
import { startExporter, type Exporter } from './app.js';
import { ConfigError, FLAGS, envName, loadConfig } from './config/load.js';
import { createLogger } from './logger.js';
import { redactUrl } from './redact.js';
import { VERSION } from './version.js';

const USAGE = `avalanche-exporter ${VERSION}: Prometheus exporter for Avalanche nodes

Usage:
  avalanche-exporter [run] [flags]          watch the node(s) and serve /metrics
  avalanche-exporter demo [flags]           start the simulated node and the exporter against it
  avalanche-exporter sim [flags]            start the simulated node alone (see: sim --help)
  avalanche-exporter check-config [flags]   validate the configuration and exit (0 valid, 2 invalid)
  avalanche-exporter --version | --help

Flags (each also readable from the environment, e.g. --node.url as ${envName('node.url')}):
`;

function help(): string {
  const rows = FLAGS.filter((f) => !/^collector\.[a-z-]+(\.interval)?$/.test(f.flag) || f.flag.startsWith('collector.node-info'))
    .map((f) => `  --${f.flag}${f.kind === 'bool' ? '' : ' VALUE'}`.padEnd(52) + f.help + (f.def ? ` (default ${f.def})` : ''));
  return `${USAGE}${rows.join('\n')}
  --collector.NAME / --no-collector.NAME            enable or disable a collector (NAME as in the README)
  --collector.NAME.interval DURATION                interval of a collector (multiple of --collection.interval)
  demo only: --sim.scenario NAME, --sim.seed N, --sim.validators N, --sim.peers N, --sim.version 1.13.5|1.14.2
`;
}

async function run(argv: string[], extra?: { banner?: (e: Exporter) => void; onStop?: () => Promise<void> }): Promise<void> {
  const { config } = loadConfig({ argv });
  const logger = createLogger(config.log.level);
  const exporter = await startExporter({
    config,
    logger,
    reloadConfig: () => loadConfig({ argv }).config,
    enableReloadEndpoint: config.web.enableLifecycle,
  });
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
}

async function demo(argv: string[]): Promise<void> {
  const simArgs: Record<string, string> = {};
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const m = /^--sim\.([a-z-]+)(?:=(.*))?$/.exec(a);
    if (m) {
      const v = m[2] ?? argv[++i];
      if (v === undefined) throw new ConfigError(`flag --sim.${m[1]} needs a value`);
      simArgs[m[1]!] = v;
    } else rest.push(a);
  }
  const { startSimNode, SCENARIOS } = await import('./sim/server.js');
  const scenario = simArgs['scenario'] ?? 'healthy';
  if (!(SCENARIOS as readonly string[]).includes(scenario)) throw new ConfigError(`--sim.scenario: expected one of ${SCENARIOS.join(', ')}, got ${JSON.stringify(scenario)}`);
  const num = (k: string) => {
    const v = simArgs[k];
    if (v === undefined) return undefined;
    if (!/^\d+$/.test(v)) throw new ConfigError(`--sim.${k}: expected a whole number, got ${JSON.stringify(v)}`);
    return Number(v);
  };
  const sim = await startSimNode({
    scenario: scenario as (typeof SCENARIOS)[number],
    seed: num('seed'),
    validators: num('validators'),
    peers: num('peers'),
    healthIntervalMs: 5000,
    healthFirstRunMs: 5000, // like a real node: checks "not yet run" for one health period after a (re)start
    version: simArgs['version'] as import('./sim/server.js').SimVersion | undefined, // --sim.version 1.13.5|1.14.2
  });
  const hasUrl = rest.some((a) => a.startsWith('--node.url'));
  const args = hasUrl ? rest : ['--node.url', sim.url, '--node.name', 'demo-node', ...rest];
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
    });
  } catch (err) {
    await sim.close();
    throw err;
  }
}

function checkConfig(argv: string[]): void {
  const { config, configFile } = loadConfig({ argv });
  const lines = config.targets.map((t) => `  - ${t.name ?? '(default name)'}: ${redactUrl(t.url)}${t.reference ? ' (reference)' : ''}`);
  process.stdout.write(`configuration OK${configFile ? ` (${configFile})` : ''}: ${config.targets.length} target(s)\n${lines.join('\n')}\n`);
}

export async function main(argv: string[]): Promise<void> {
  const [first, ...rest] = argv;
  try {
    if (first === '--help' || first === '-h' || first === 'help') {
      process.stdout.write(help());
      return;
    }
    if (first === '--version' || first === 'version') {
      process.stdout.write(`avalanche-exporter ${VERSION}\n`);
      return;
    }
    if (first === 'demo') return await demo(rest);
    if (first === 'sim') {
      const { simMain } = await import('./sim/cli.js');
      return await simMain(rest);
    }
    if (first === 'check-config') return checkConfig(rest);
    if (first === 'run') return await run(rest);
    return await run(argv);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`avalanche-exporter: ${err.message}\n`);
      process.exit(2);
    }
    const e = err as NodeJS.ErrnoException;
    if (e.code === 'EADDRINUSE' || e.code === 'EACCES' || e.code === 'EADDRNOTAVAIL') {
      process.stderr.write(`avalanche-exporter: cannot listen: ${e.message}\n`);
      process.exit(1);
    }
    process.stderr.write(`avalanche-exporter: ${e.stack ?? String(err)}\n`);
    process.exit(1);
  }
}

void main(process.argv.slice(2));
