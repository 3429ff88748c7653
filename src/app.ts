import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import cron from 'node-cron';
import type { Logger } from 'pino';
import { Registry, collectDefaultMetrics } from 'prom-client';
import { COLLECTORS } from './collectors/index.js';
import type { Collector } from './collectors/types.js';
import { formatDuration } from './config/duration.js';
import { collectorSettings, resolveTargets, type ResolvedTarget } from './config/resolve.js';
import type { Config } from './config/schema.js';
import { DESCRIPTOR_BY_NAME } from './metrics/descriptors.js';
import { Exposition, TargetSegment, makeRendered, type RenderedExposition } from './metrics/exposition.js';
import { redactUrl } from './redact.js';
import { Scheduler } from './scheduler/scheduler.js';
import { TargetRunner } from './scheduler/target-runner.js';
import { createExporterServer } from './server/server.js';
import { VERSION } from './version.js';
import type { Sample } from './metrics/model.js';

/** Segment name of the cross-target series (reference comparison, ACP votes); not a configured target. */
const REFERENCE_SEGMENT = '\u0000reference';

/**
 * avax_chain_height_behind_reference: for every non-reference target and chain, the highest height
 * among the reference targets minus the target's height. Computed from the published samples only.
 */
export function behindReference(runners: readonly TargetRunner[], latest: ReadonlyMap<string, readonly Sample[]>): Sample[] {
  const heights = (name: string) => {
    const m = new Map<string, number>();
    for (const s of latest.get(name) ?? []) if (s.name === 'avax_chain_height') m.set(s.labels['chain']!, s.value);
    return m;
  };
  const refBest = new Map<string, number>();
  for (const r of runners) {
    if (!r.target.spec.reference) continue;
    for (const [chain, h] of heights(r.name)) refBest.set(chain, Math.max(refBest.get(chain) ?? -Infinity, h));
  }
  const out: Sample[] = [];
  if (refBest.size === 0) return out;
  for (const r of runners) {
    if (r.target.spec.reference) continue;
    for (const [chain, h] of heights(r.name)) {
      const ref = refBest.get(chain);
      if (ref !== undefined && ['P', 'C', 'X'].includes(chain)) out.push({ name: 'avax_chain_height_behind_reference', labels: { target: r.name, chain }, value: ref - h });
    }
  }
  return out;
}

/**
 * avax_acp_node_vote{acp,vote}: the node's own stance on each open ACP of its info.acps. avalanchego
 * never reports a node's own stance through its own API (info.acps and info.peers count peers only), so
 * it is read from another target of this exporter that has the node as a peer: that peer's
 * info.peers entry carries the node's supportedACPs / objectedACPs, for the ACPs the vantage has open
 * too. One series per vote (support, object, abstain), 1 for the stance; absent while no other target
 * can see it.
 */
export function acpNodeVotes(runners: readonly TargetRunner[]): Sample[] {
  const out: Sample[] = [];
  for (const r of runners) {
    // A target that does not answer publishes nothing of its own (the stale-value rule).
    if (r.upState() === 0) continue;
    const memo = r.memoView();
    const own = memo.nodeId;
    const open = memo.openAcps;
    if (!own || !open || open.length === 0) continue;
    for (const n of open) {
      // A node keeps a peer's votes only for the ACPs its own version has open (constants.CurrentACPs,
      // network/peer/peer.go): a vantage without ACP n open would show every peer abstaining on it.
      let stance: { supported: readonly number[]; objected: readonly number[] } | undefined;
      for (const other of runners) {
        if (other === r || other.upState() === 0) continue;
        const m = other.memoView();
        if (!m.openAcps?.includes(n)) continue;
        stance = m.peerAcps?.get(own);
        if (stance) break;
      }
      if (!stance) continue;
      const vote = stance.supported.includes(n) ? 'support' : stance.objected.includes(n) ? 'object' : 'abstain';
      for (const v of ['support', 'object', 'abstain']) {
        out.push({ name: 'avax_acp_node_vote', labels: { target: r.name, acp: String(n), vote: v }, value: v === vote ? 1 : 0 });
      }
    }
  }
  return out;
}

export interface ExporterOptions {
  config: Config;
  logger: Logger;
  /** Clock (ms); golden tests fix it. */
  now?: () => number;
  collectors?: readonly Collector[];
  /** Start the HTTP server (default true). */
  listen?: boolean;
  /** Start node-cron schedules (default true); tests and benchmarks may drive cycles themselves. */
  schedule?: boolean;
  /** Provides a fresh config on SIGHUP or POST /-/reload. */
  reloadConfig?: () => Config;
  /** Enables POST /-/reload. */
  enableReloadEndpoint?: boolean;
}

export interface Exporter {
  /** http(s)://host:port of the server, when listening. */
  readonly url: string;
  readonly server?: Server;
  current(): RenderedExposition;
  scheduler: Scheduler;
  /** Runs one cycle of every target now, then renders (tests, benchmarks). */
  collectOnce(): Promise<void>;
  /** Renders now and waits for it. */
  render(): Promise<RenderedExposition>;
  reload(cfg?: Config): Promise<void>;
  stop(): Promise<void>;
}

export async function startExporter(opts: ExporterOptions): Promise<Exporter> {
  const { logger } = opts;
  let cfg = opts.config;
  const collectors = opts.collectors ?? COLLECTORS;
  const now = opts.now ?? Date.now;
  // node-cron writes warnings with console by default; route them to the JSON log.
  cron.setLogger({
    info: (m) => logger.debug({ component: 'node-cron' }, m),
    warn: (m) => logger.debug({ component: 'node-cron' }, m),
    error: (m) => logger.error({ component: 'node-cron' }, String(m)),
    debug: () => {},
  });

  let intervals = new Map<string, number>();
  const helpSuffix = (family: string): string => {
    const d = DESCRIPTOR_BY_NAME.get(family);
    if (!d) return '';
    if (d.collector === 'runner') return d.name === 'avax_exporter_build_info' ? '' : ` Updated after every collection cycle (every ${formatDuration(cfg.collection.interval)}).`;
    if (d.collector === 'derived' || d.collector === 'fleet' || d.collector === 'reference') {
      return ` Computed by the exporter from other series after every collection cycle.`;
    }
    const iv = intervals.get(d.collector);
    return iv ? ` Refreshed every ${formatDuration(iv)} by the ${d.collector} collector.` : ` Refreshed by the ${d.collector} collector.`;
  };
  const exposition = new Exposition(helpSuffix);
  exposition.setGlobal([{ name: 'avax_exporter_build_info', labels: { version: VERSION, nodejs_version: process.version }, value: 1 }]);

  const processRegistry = new Registry();
  if (!cfg.web.disableExporterMetrics) {
    collectDefaultMetrics({ register: processRegistry });
    // Gauges named *_total fail `promtool check metrics`; nodejs_active_{handles,requests,resources}
    // (without _total) carry the same counts.
    for (const n of ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total']) processRegistry.removeSingleMetric(n);
  }

  let rendered = makeRendered(exposition.assemble().text, 0, now());
  const probeCache = new Map<string, RenderedExposition>();
  let renderSeq = 0;
  let renderPending: Promise<RenderedExposition> | undefined;

  const doRender = async (): Promise<RenderedExposition> => {
    const seq = ++renderSeq;
    const { text, seriesCount } = exposition.assemble();
    // prom-client writes NaN as "Nan" (lib/util.js); the text format spells it NaN.
    const extra = cfg.web.disableExporterMetrics ? '' : (await processRegistry.metrics().catch(() => '')).replace(/ Nan$/gm, ' NaN');
    const r = makeRendered(text + extra, seriesCount, now());
    if (seq === renderSeq) rendered = r;
    probeCache.clear();
    return r;
  };
  const scheduleRender = (): Promise<RenderedExposition> => {
    // Coalesce: many targets finishing together give one render.
    renderPending ??= new Promise<RenderedExposition>((resolve) => setImmediate(() => resolve(doRender()))).finally(() => {
      renderPending = undefined;
    });
    return renderPending;
  };

  const makeRunners = (targets: readonly ResolvedTarget[]) =>
    targets.map(
      (t) =>
        new TargetRunner(t, {
          collectors,
          settings: collectorSettings(cfg),
          baseIntervalSeconds: cfg.collection.interval,
          collectorTimeoutSeconds: cfg.collection.timeout,
          node: { timeoutSeconds: cfg.node.timeout, maxResponseBytes: cfg.node.maxResponseSize, connections: cfg.node.connections },
          logger,
          now,
        }),
    );

  const latest = new Map<string, readonly Sample[]>();
  const publish = (runner: TargetRunner) => {
    const samples = runner.samples();
    latest.set(runner.name, samples);
    const seg = new TargetSegment(samples);
    if (seg.unknown.length > 0) logger.error({ target: runner.name, samples: [...new Set(seg.unknown)].slice(0, 5) }, 'samples without a metric descriptor were dropped');
    exposition.setTarget(runner.name, seg);
    exposition.setTarget(REFERENCE_SEGMENT, new TargetSegment([...behindReference(allRunners(), latest), ...acpNodeVotes(allRunners())]));
    void scheduleRender();
  };

  const scheduler = new Scheduler({
    intervalSeconds: cfg.collection.interval,
    maxConcurrentTargets: cfg.collection.maxConcurrentTargets,
    logger,
    onCycle: publish,
  });
  let resolved = resolveTargets(cfg, collectors);
  intervals = new Map(resolved[0]?.collectors.map((c) => [c.name, c.intervalSeconds]) ?? []);
  const shouldSchedule = opts.schedule ?? true;
  const initial = makeRunners(resolved);
  if (shouldSchedule) scheduler.add(initial);
  const manual = shouldSchedule ? [] : initial;
  const allRunners = () => (shouldSchedule ? scheduler.runners() : manual);

  for (const t of resolved) {
    logger.info(
      { event: 'target_configured', target: t.spec.name, node: redactUrl(t.url), reference: t.spec.reference, collectors: t.collectors.filter((c) => c.enabled).map((c) => c.name) },
      'watching node',
    );
  }

  const reload = async (next?: Config) => {
    const newCfg = next ?? opts.reloadConfig?.();
    if (!newCfg) throw new Error('no configuration source to reload from');
    const before = new Map(scheduler.runners().map((r) => [r.name, r]));
    const newResolved = resolveTargets(newCfg, collectors);
    const key = (t: ResolvedTarget) => JSON.stringify([t.url, t.headers, t.spec, t.collectors]);
    const oldKeys = new Map(resolved.map((t) => [t.spec.name, key(t)]));
    const keep = new Set(newResolved.filter((t) => oldKeys.get(t.spec.name) === key(t)).map((t) => t.spec.name));
    const toRemove = [...before.keys()].filter((n) => !keep.has(n));
    const removed = await scheduler.remove(toRemove);
    for (const r of removed) {
      exposition.removeTarget(r.name);
      latest.delete(r.name);
      await r.close();
    }
    cfg = newCfg;
    resolved = newResolved;
    intervals = new Map(resolved[0]?.collectors.map((c) => [c.name, c.intervalSeconds]) ?? []);
    const added = makeRunners(newResolved.filter((t) => !keep.has(t.spec.name)));
    scheduler.add(added);
    logger.info({ event: 'config_reloaded', targets: newResolved.map((t) => t.spec.name), removed: toRemove.filter((n) => !newResolved.some((t) => t.spec.name === n)) }, 'configuration reloaded');
    await scheduleRender();
  };

  let server: Server | undefined;
  let url = '';
  if (opts.listen ?? true) {
    server = createExporterServer({
      telemetryPath: cfg.web.telemetryPath,
      version: VERSION,
      maxConcurrentScrapes: cfg.web.maxConcurrentScrapes,
      logger,
      exposition: () => rendered,
      probe: (name) => {
        if (!resolved.some((t) => t.spec.name === name)) return undefined;
        let r = probeCache.get(name);
        if (!r) {
          const { text, seriesCount } = exposition.assemble(name, false);
          r = makeRendered(text, seriesCount, now());
          probeCache.set(name, r);
        }
        return r;
      },
      targets: () =>
        allRunners().map((r) => ({ name: r.name, url: redactUrl(r.target.url), reference: r.target.spec.reference, ...r.status(),
          nodeId: r.memoView().nodeId, nodeVersion: r.memoView().nodeVersion })),
      reload: opts.enableReloadEndpoint ? () => reload() : undefined,
      webConfigFile: cfg.web.configFile,
    });
    const { host, port } = splitListen(cfg.web.listenAddress);
    await new Promise<void>((resolve, reject) => {
      server!.once('error', reject);
      server!.listen(port, host, () => {
        server!.off('error', reject);
        resolve();
      });
    });
    const addr = server.address() as AddressInfo;
    const shownHost = !host || host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
    url = `${'setSecureContext' in server ? 'https' : 'http'}://${shownHost}:${addr.port}`;
    logger.info({ event: 'listening', address: `${host ?? ''}:${addr.port}`, path: cfg.web.telemetryPath }, 'serving metrics');
  }

  return {
    url,
    server,
    scheduler,
    current: () => rendered,
    async collectOnce() {
      if (shouldSchedule) await scheduler.runAllOnce();
      else {
        await Promise.all(manual.map((r) => r.runCycle()));
        manual.forEach(publish);
      }
      await scheduleRender();
    },
    render: () => doRender(),
    reload,
    async stop() {
      await scheduler.stop();
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

export function splitListen(addr: string): { host: string | undefined; port: number } {
  const i = addr.lastIndexOf(':');
  let host = addr.slice(0, i);
  if (host.startsWith('[') && host.endsWith(']')) host = host.slice(1, -1);
  return { host: host === '' ? undefined : host, port: Number(addr.slice(i + 1)) };
}
