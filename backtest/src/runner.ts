// Runs a timeline in simulated time: the fleet of simulated nodes and the real exporter (its
// collectors, derivations and renderer, started with startExporter) share one injected clock; each
// collection interval the planned actions that fell due are applied, the exporter runs one cycle,
// and what a scrape would have returned is written as OpenMetrics with that time. Nothing waits on
// the wall clock: requests are answered in process (InProcessDispatcher).
import type { Logger } from 'pino';
import { loadConfig, createLogger, startExporter, type Exporter } from 'avalanche-exporter';
import { InProcessDispatcher, type InProcessResult } from './dispatcher.js';
import { exporterConfigYaml, nodeOfOrigin, REFERENCE, targetName } from './exporter-config.js';
import { keptSamples } from './exposition.js';
import { OpenMetricsWriter, type WrittenFile } from './openmetrics.js';
import { planTimeline, type Action, type Plan } from './plan.js';
import { nameKey, unit } from './random.js';
import { SimFleet } from './sim-fleet.js';
import type { Timeline } from './timeline.js';

/** The library's collection and scrape interval when a timeline does not set one (backtest/README.md "Limits": the trade-off). */
export const DEFAULT_INTERVAL_MS = 60_000;

export interface RunOptions {
  readonly timeline: Timeline;
  /** where the OpenMetrics files go */
  readonly dir: string;
  /** metric names written (the rules' families) */
  readonly keep: ReadonlySet<string>;
  /** OpenMetrics file window = promtool's block duration */
  readonly fileWindowMs: number;
  /** called with the simulated time every so often */
  readonly progress?: (doneMs: number, totalMs: number) => void;
}

export interface RunResult {
  readonly timeline: string;
  readonly plan: Plan;
  readonly startMs: number;
  readonly endMs: number;
  readonly intervalMs: number;
  readonly targets: readonly string[];
  readonly nodeIds: readonly string[];
  readonly files: readonly WrittenFile[];
  readonly cycles: number;
  readonly scrapes: number;
  readonly missedScrapes: number;
  readonly requests: { readonly answered: number; readonly failed: number; readonly timeouts: number };
  /** error lines the exporter logged (they must surface) */
  readonly exporterErrors: readonly string[];
  /**
   * How often each moment of the node's life happened (issue 43), counted where it took effect: `restake`, `join`,
   * `L1 change`, `peer restart` (actions applied; a re-stake does nothing on an auto-renewed validator), and,
   * seen at the collection cycles, `cycle boundary` (an auto-renewed validator's next cycle) and `validation
   * renewed` (a fixed-end validation replaced by the simulator's own renewal, a re-stake or a join).
   */
  readonly moments: Readonly<Record<string, number>>;
  readonly wallMs: number;
}

/** A pino destination keeping the exporter's error lines. */
function errorSink(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const logger = createLogger('error', { write: (msg: string) => void lines.push(msg.trim()) });
  return { logger, lines };
}

export async function runTimeline(o: RunOptions): Promise<RunResult> {
  const wall = performance.now();
  const t = o.timeline;
  const intervalMs = t.settings.interval ?? DEFAULT_INTERVAL_MS;
  const plan = planTimeline(t);
  let now = t.startMs;
  const clock = () => now;
  const fleet = new SimFleet({
    nodes: t.fleet.nodes,
    seed: t.seed,
    validators: t.fleet.validators,
    peers: t.fleet.peers,
    versions: t.fleet.versions,
    reference: t.fleet.reference,
    now: clock,
  });
  // every simulated node the dispatcher answers for (the reference node included)
  const n = fleet.size;
  const nodeIds = Array.from({ length: fleet.nodes }, (_, i) => fleet.nodeId(i));

  // Transport noise: a share of one node's requests time out (the noise rate, or an event's).
  const eventRate = new Array<number>(n).fill(0);
  const noiseRate = t.noise.timeouts?.rate ?? 0;
  const requestNo = new Array<number>(n).fill(0);
  let timeouts = 0;
  const serve = (origin: string, method: string, path: string, headers: Record<string, string>, body: string): InProcessResult => {
    const i = nodeOfOrigin(origin);
    if (i === undefined || i >= n) return { kind: 'error', code: 'ENOTFOUND' };
    const rate = Math.max(noiseRate, eventRate[i]!);
    if (rate > 0 && unit(t.seed, nameKey('timeout'), i, requestNo[i]!++) < rate) {
      timeouts++;
      return { kind: 'error', code: 'UND_ERR_HEADERS_TIMEOUT' };
    }
    const out = fleet.request(i, method, path, headers, body);
    if (out.kind === 'error') return out;
    return { kind: 'answer', status: out.answer.status, headers: { ...out.answer.headers, 'Node-Id': out.nodeId }, body: out.answer.body };
  };
  const dispatcher = new InProcessDispatcher((r) => serve(r.origin, r.method, r.path, r.headers, r.body));

  const yaml = exporterConfigYaml(
    { nodeIds, l1SubnetIds: nodeIds.map((_, i) => fleet.l1SubnetId(i)) },
    { intervalMs, vantages: t.fleet.vantages, adminLogger: t.fleet.adminLogger, watchL1: t.fleet.watchL1, reference: t.fleet.reference },
  );
  const { config } = loadConfig({ argv: ['--config.file', `${t.name}.exporter.yaml`], env: {}, readFile: () => yaml });
  const sink = errorSink();
  const start = () => startExporter({ config, logger: sink.logger, now: clock, listen: false, schedule: false, dispatcher });

  let exporter: Exporter | undefined = await start();
  let scrapesOff = false;
  const moments: Record<string, number> = {};
  const count = (what: string) => void (moments[what] = (moments[what] ?? 0) + 1);
  const apply = async (a: Action): Promise<void> => {
    switch (a.kind) {
      case 'restake':
        if (fleet.restake(a.node)) count('restake');
        return;
      case 'join':
        fleet.join(a.node);
        count('join');
        return;
      case 'l1-change':
        if (fleet.changeL1(a.node)) count('L1 change');
        return;
      case 'peer-restart':
        fleet.restartPeers(a.node, a.share, a.forMs);
        count('peer restart');
        return;
      case 'scenario':
        fleet.setScenario(a.node, a.scenario);
        return;
      case 'restart':
        fleet.restart(a.node, a.firstRunMs);
        return;
      case 'timeouts':
        eventRate[a.node] = a.rate;
        return;
      case 'scrapes':
        scrapesOff = a.missed;
        return;
      case 'exporter':
        if (!a.up && exporter) {
          await exporter.stop();
          exporter = undefined;
        } else if (a.up && !exporter) exporter = await start();
        return;
    }
  };

  const writer = new OpenMetricsWriter(o.dir, o.fileWindowMs, t.name);
  const missRate = t.noise.missedScrapes?.rate ?? 0;
  const endMs = t.startMs + t.duration;
  // the own validation (cycle) each node had at the last cycle: a new start is a boundary or a renewal
  const periods = nodeIds.map((_, i) => fleet.ownPeriod(i));
  const notePeriods = () =>
    nodeIds.forEach((_, i) => {
      const p = fleet.ownPeriod(i);
      if (p.start !== periods[i]!.start) count(fleet.autoRenewed(i) && p.start === periods[i]!.end ? 'cycle boundary' : 'validation renewed');
      periods[i] = p;
    });
  let next = 0;
  let cycles = 0;
  let scrapes = 0;
  let missed = 0;
  try {
    for (let k = 0; t.startMs + k * intervalMs <= endMs; k++) {
      const at = t.startMs + k * intervalMs;
      while (next < plan.actions.length && t.startMs + plan.actions[next]!.atMs <= at) {
        const p = plan.actions[next++]!;
        now = t.startMs + p.atMs;
        await apply(p.action);
      }
      now = at;
      notePeriods();
      if (!exporter) continue;
      await exporter.collectOnce();
      cycles++;
      const rendered = await exporter.render();
      if (scrapesOff || (missRate > 0 && unit(t.seed, nameKey('scrape'), k) < missRate)) {
        missed++;
        continue;
      }
      writer.scrape(at, keptSamples(rendered.text.toString('utf8'), o.keep));
      scrapes++;
      if (k % 1440 === 0) o.progress?.(at - t.startMs, t.duration);
    }
  } finally {
    const ex = exporter as Exporter | undefined;
    await ex?.stop();
    await dispatcher.close();
  }
  return {
    timeline: t.name,
    plan,
    startMs: t.startMs,
    endMs,
    intervalMs,
    targets: [...nodeIds.map((_, i) => targetName(i)), ...(t.fleet.reference ? [REFERENCE] : [])],
    nodeIds,
    files: writer.close().filter((f) => f.samples > 0),
    cycles,
    scrapes,
    missedScrapes: missed,
    requests: { ...dispatcher.counts, timeouts },
    exporterErrors: sink.lines,
    moments,
    wallMs: performance.now() - wall,
  };
}
