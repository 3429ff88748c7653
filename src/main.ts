import type { Server } from 'node:http';
import cron from 'node-cron';
import type { Logger } from 'pino';
import type { Dispatcher } from 'undici';
import type { Collector } from './collectors/define.js';
import { COLLECTORS } from './collectors/index.js';
import { collectorOptions, diffTargets, resolveTargets, type ResolvedTarget } from './config/targets.js';
import type { Config } from './config/schema.js';
import { DERIVATIONS, FLEET_DERIVATIONS } from './derive/index.js';
import { DescriptorIndex, descriptorsOf } from './metrics/descriptors.js';
import type { RenderedExposition } from './metrics/exposition.js';
import { helpSuffix } from './metrics/help-suffix.js';
import { processMetrics } from './metrics/process-metrics.js';
import { Publisher, WATCH_WINDOW_MS, type RenderStats } from './metrics/publisher.js';
import { redactUrl } from './redact.js';
import { Scheduler } from './scheduler/scheduler.js';
import { NodeClient } from './node-client/client.js';
import { NetworkAnswers } from './scheduler/network-answers.js';
import { TargetRunner } from './scheduler/target-runner.js';
import { otherShardText } from './config/shard.js';
import { SERVING_THREAD_AUTO_TARGETS } from './config/settings.js';
import { listen } from './server/listen.js';
import { createExporterServer } from './server/server.js';
import { ServingThread } from './server/serving-thread.js';
import { targetView } from './server/target-view.js';
import type { TargetSnapshot } from './snapshot.js';
import { VERSION } from './version.js';

/**
 * Wiring only: config → logger → targets → scheduler → exposition → server. Each part lives in its
 * layer (docs/ARCHITECTURE.md); a snapshot flows one way: runner → publisher (derive, render) → server.
 */
export interface ExporterOptions {
  config: Config;
  logger: Logger;
  /** Clock (ms); golden tests fix it. */
  now?: () => number;
  /** The collector list (default: COLLECTORS; tests add one to prove the list is the only registration). */
  collectors?: readonly Collector<any>[];
  /** Start the HTTP server (default true). */
  listen?: boolean;
  /** Start node-cron schedules (default true); tests and benchmarks may drive cycles themselves. */
  schedule?: boolean;
  /** Sends every node request through this undici dispatcher instead of one Pool per target (the backtest). */
  dispatcher?: Dispatcher;
  /** Provides a fresh config on SIGHUP or POST /-/reload. */
  reloadConfig?: () => Config;
  /** Enables POST /-/reload. */
  enableReloadEndpoint?: boolean;
  /** The serving thread lets go of a target not probed for this long (default 10 minutes; tests shorten it). */
  probeIdleMs?: number;
  /** The serving thread reports its event-loop delay once per this window (default 15 s; tests shorten it). */
  loopWindowMs?: number;
  /** A watched scrape waits for a render costing at most this (the publisher's default 20 ms; tests of a big fleet's scrape set it below 0). */
  scrapeWaitMaxRenderMs?: number;
}

export interface Exporter {
  /** http(s)://host:port of the server, when listening. */
  readonly url: string;
  /** The HTTP server, when it runs on this thread (else `servingThread`: --web.serving-thread). */
  readonly server?: Server;
  readonly servingThread?: ServingThread;
  current(): RenderedExposition;
  /** The latest snapshot of every target. */
  snapshots(): ReadonlyMap<string, TargetSnapshot>;
  scheduler: Scheduler;
  /** Runs one cycle of every target now, then renders (tests, benchmarks). */
  collectOnce(): Promise<void>;
  /** The render that includes every publication so far (made now when needed). */
  render(): Promise<RenderedExposition>;
  /** Full renders started and the most in flight at once (tests and the bench bound them). */
  renderStats(): RenderStats;
  reload(cfg?: Config): Promise<void>;
  stop(): Promise<void>;
}

export async function startExporter(opts: ExporterOptions): Promise<Exporter> {
  const { logger } = opts;
  let cfg = opts.config;
  const collectors = opts.collectors ?? COLLECTORS;
  const now = opts.now ?? Date.now;
  routeCronLogs(logger);

  const index = new DescriptorIndex(descriptorsOf(collectors));
  /** The serving thread, once it runs (--web.serving-thread); its event-loop delay goes in the process metrics. */
  let thread: ServingThread | undefined;
  let resolved = resolveTargets(cfg, collectors);
  let options = collectorOptions(cfg, collectors);
  let intervals = intervalsOf(resolved);
  const publisher = new Publisher({
    index,
    derivations: DERIVATIONS,
    fleetDerivations: FLEET_DERIVATIONS,
    global: [{ name: 'avax_exporter_build_info', labels: { version: VERSION, nodejs_version: process.version }, value: 1 }],
    helpSuffix: (family) => helpSuffix(index, cfg.collection.interval, intervals)(family),
    processMetrics: cfg.web.disableExporterMetrics ? undefined : processMetrics(() => thread?.loopDelay),
    logger,
    now,
    scrapeWaitMaxRenderMs: opts.scrapeWaitMaxRenderMs,
  });

  // Answers that are the same from every node of a network, shared by the targets of each network.
  const answers = new NetworkAnswers(now, logger);
  const makeRunners = (targets: readonly ResolvedTarget[]) =>
    targets.map(
      (t, i) =>
        new TargetRunner(t, {
          phaseOffset: i,
          collectors,
          options,
          baseIntervalSeconds: cfg.collection.interval,
          collectorTimeoutSeconds: cfg.collection.timeout,
          client: (target, onRequest) =>
            new NodeClient({
              url: target.url,
              headers: { ...target.headers },
              timeoutMs: cfg.node.timeout * 1000,
              maxResponseBytes: cfg.node.maxResponseSize,
              connections: cfg.node.connections,
              dispatcher: opts.dispatcher,
              onRequest,
            }),
          answers,
          logger,
          now,
        }),
    );

  const scheduler = new Scheduler({
    intervalSeconds: cfg.collection.interval,
    maxConcurrentTargets: cfg.collection.maxConcurrentTargets,
    logger,
    onCycle: (s) => publisher.publish(s),
  });
  const shouldSchedule = opts.schedule ?? true;
  const initial = makeRunners(resolved);
  if (shouldSchedule) scheduler.add(initial);
  const manual = shouldSchedule ? [] : initial;
  const runners = () => (shouldSchedule ? scheduler.runners() : manual);
  for (const t of resolved) logTarget(logger, t);

  const reload = async (next?: Config) => {
    const newCfg = next ?? opts.reloadConfig?.();
    if (!newCfg) throw new Error('no configuration source to reload from');
    const newResolved = resolveTargets(newCfg, collectors);
    const newOptions = collectorOptions(newCfg, collectors);
    // Changed collector options restart every target (each runner holds the options it started with).
    const optionsChanged = JSON.stringify([...newOptions]) !== JSON.stringify([...options]);
    const { remove, add } = diffTargets(optionsChanged ? [] : resolved, newResolved);
    const toRemove = optionsChanged ? scheduler.runners().map((r) => r.name) : remove;
    for (const r of await scheduler.remove(toRemove)) {
      publisher.remove(r.name);
      await r.close();
    }
    cfg = newCfg;
    resolved = newResolved;
    options = newOptions;
    intervals = intervalsOf(resolved);
    scheduler.add(makeRunners(optionsChanged ? newResolved : add));
    logger.info({ event: 'config_reloaded', targets: newResolved.map((t) => t.spec.name), removed: toRemove.filter((n) => !newResolved.some((t) => t.spec.name === n)) }, 'configuration reloaded');
    await publisher.flush();
  };

  let server: Server | undefined;
  let url = '';
  if (opts.listen ?? true) {
    const answers = {
      exposition: () => publisher.scrape(),
      probe: (name: string) => publisher.probe(name),
      otherShard: (name: string) => otherShardText(cfg, name),
      targets: () => runners().map((r) => targetView(publisher.latest().get(r.name) ?? r.snapshot(), redactUrl(r.target.url))),
      reload: opts.enableReloadEndpoint ? () => reload() : undefined,
      scraped: () => void Promise.resolve(publisher.scrape()).catch(() => {}),
    };
    const web = { telemetryPath: cfg.web.telemetryPath, version: VERSION, maxConcurrentScrapes: cfg.web.maxConcurrentScrapes, webConfigFile: cfg.web.configFile };
    if (servingThreadWanted(cfg.web.servingThread, resolved.length)) {
      const setup = { ...web, listenAddress: cfg.web.listenAddress, logLevel: logger.level, reload: !!answers.reload, probeIdleMs: opts.probeIdleMs, loopWindowMs: opts.loopWindowMs, watchWindowMs: WATCH_WINDOW_MS };
      thread = await ServingThread.start(setup, { logger, answers });
      publisher.sendProbes(thread);
      publisher.sendRenders(thread);
      url = thread.url;
    } else {
      server = createExporterServer({ ...web, ...answers, logger });
      url = await listen(server, cfg.web.listenAddress, cfg.web.telemetryPath, logger);
    }
  }

  return {
    url,
    server,
    servingThread: thread,
    scheduler,
    current: () => publisher.current(),
    snapshots: () => publisher.latest(),
    async collectOnce() {
      if (shouldSchedule) await scheduler.runAllOnce();
      else for (const s of await Promise.all(manual.map((r) => r.runCycle()))) publisher.publish(s);
      await publisher.flush();
    },
    render: () => publisher.flush(),
    renderStats: () => publisher.stats(),
    reload,
    async stop() {
      await scheduler.stop();
      await thread?.close();
      if (server) {
        await new Promise<void>((resolve) => {
          server!.close(() => resolve());
          server!.closeIdleConnections();
          setTimeout(() => server!.closeAllConnections(), 2000).unref();
        });
      }
      await Promise.all([...scheduler.runners(), ...manual].map((r) => r.close()));
    },
  };
}

/** --web.serving-thread: `auto` is a thread of its own from SERVING_THREAD_AUTO_TARGETS targets (a small fleet does not pay ~10 MB for it). */
function servingThreadWanted(mode: 'auto' | 'on' | 'off', targets: number): boolean {
  return mode === 'on' || (mode === 'auto' && targets >= SERVING_THREAD_AUTO_TARGETS);
}

function intervalsOf(resolved: readonly ResolvedTarget[]): Map<string, number> {
  return new Map(resolved[0]?.collectors.map((c) => [c.name, c.intervalSeconds]) ?? []);
}

/** node-cron writes warnings with console by default; route them to the JSON log. */
function routeCronLogs(logger: Logger): void {
  cron.setLogger({
    info: (m) => logger.debug({ component: 'node-cron' }, m),
    warn: (m) => logger.debug({ component: 'node-cron' }, m),
    error: (m) => logger.error({ component: 'node-cron' }, String(m)),
    debug: () => {},
  });
}

function logTarget(logger: Logger, t: ResolvedTarget): void {
  logger.info(
    { event: 'target_configured', target: t.spec.name, node: redactUrl(t.url), reference: t.spec.reference, collectors: t.collectors.filter((c) => c.enabled).map((c) => c.name) },
    'watching node',
  );
}
