// The analysis of one simulated timeline: a real Prometheus on its blocks evaluates every rule
// (evaluate.ts), the state machine turns the results into alert episodes, Alertmanager's grouping
// and inhibition turn firing alerts into pages, and the figures follow; then the cross-checks of
// the state machine (vmalert's replay, promtool's engine) run on the same blocks.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { AlertmanagerConfig, Labels } from './alertmanager-config.js';
import { evaluateRules, gridOf } from './evaluate.js';
import { FLAP_WINDOW_MS, timelineFigures, type FiredRef, type RuleEpisodes, type TimelineFigures } from './figures.js';
import { heartbeatReceivers, notify, type FiringAlert } from './notifications.js';
import { startPrometheus } from './prometheus.js';
import { runPromtoolCase, type PromtoolResult } from './promtool-check.js';
import { writeRulesWithoutAnnotations, type AlertRule } from './rules.js';
import type { Simulated } from './simulate.js';
import { alertEpisodes, flaps as findFlaps } from './state-machine.js';
import type { Timeline } from './timeline.js';
import { compareFiring, firingTimes, replay, type VmalertComparison } from './vmalert.js';

export interface AnalyseOptions {
  readonly timeline: Timeline;
  readonly sim: Simulated;
  readonly rules: readonly AlertRule[];
  readonly rulesDir: string;
  readonly am: AlertmanagerConfig;
  readonly workDir: string;
  readonly vmalert: boolean;
  readonly promtool: boolean;
}

export interface TimelineAnalysis {
  readonly figures: TimelineFigures;
  readonly notifiedLabels: readonly Labels[];
  readonly vmalert?: VmalertComparison;
  readonly promtool: readonly PromtoolResult[];
  readonly queryMs: number;
  readonly queries: number;
  readonly episodes: number;
}

export async function analyse(o: AnalyseOptions): Promise<TimelineAnalysis> {
  const meta = o.sim.meta;
  // scratch files of an earlier run (promtool tests, vmalert's store) must not be read again
  rmSync(o.workDir, { recursive: true, force: true });
  const prom = await startPrometheus(o.sim.tsdb, join(o.workDir, 'prometheus'), o.rules[0]?.intervalMs ?? 15_000, meta.intervalMs);
  try {
    const started = performance.now();
    const grid = (r: AlertRule) => gridOf(meta.startMs, meta.endMs, r.intervalMs);
    const results = await evaluateRules(prom, o.rules, grid, 2);
    const queryMs = performance.now() - started;

    const perRule: RuleEpisodes[] = results.map((r) => ({ rule: r.rule, episodes: alertEpisodes(r.series, r.rule, grid(r.rule)) }));
    const fired: FiredRef[] = perRule.flatMap((r) =>
      r.episodes.filter((e) => e.firedAtMs !== undefined).map((episode) => ({ ref: `${r.rule.id}|${episode.key}|${episode.firedAtMs}`, rule: r.rule, episode })),
    );
    const alerts: FiringAlert[] = fired.map((f) => ({ ref: f.ref, labels: f.episode.labels, fromMs: f.episode.firedAtMs!, toMs: f.episode.endAtMs }));
    const notified = notify(alerts, o.am);
    const { outcomes } = notified;
    // Watchdog's notifications go to a dead man's switch: the heartbeat, not a page.
    const alwaysFiring = o.rules.filter((r) => r.metrics.length === 0).map((r) => ({ alertname: r.alert, ...r.labels }));
    const heartbeat = heartbeatReceivers(o.am, alwaysFiring);
    const pages = notified.pages.filter((p) => !heartbeat.has(p.receiver));
    const flaps = perRule.flatMap((r) => findFlaps(r.episodes, FLAP_WINDOW_MS).map((f) => ({ rule: r.rule, ...f })));
    const figures = timelineFigures({
      timeline: o.timeline,
      startMs: meta.startMs,
      scrapeIntervalMs: meta.intervalMs,
      noise: meta.plan.noise,
      rules: perRule,
      fired,
      pages,
      outcomes,
      flaps,
    });
    const byRef = new Map(fired.map((f) => [f.ref, f]));
    const notifiedLabels = notified.pages.flatMap((p) => p.alerts.map((r) => byRef.get(r)!.episode.labels));

    let vmalert: VmalertComparison | undefined;
    if (o.vmalert) {
      // Debian's vmalert (1.79) does not know keep_firing_for: it replays the rules without it, and is compared
      // with the state machine run without it too (the state machine's keep_firing_for has its own tests).
      const rulesDir = join(o.workDir, 'rules-without-annotations');
      writeRulesWithoutAnnotations(o.rulesDir, rulesDir, undefined, undefined, true);
      const g = grid(o.rules[0]!);
      const vm = await replay({ rulesGlob: join(rulesDir, '*.rules.yaml'), prometheusUrl: prom.url, grid: g, workDir: o.workDir });
      const ours = new Map<string, number[]>();
      for (const [i, r] of perRule.entries()) {
        const episodes = r.rule.keepFiringForMs > 0 ? alertEpisodes(results[i]!.series, { ...r.rule, keepFiringForMs: 0 }, grid(r.rule)) : r.episodes;
        for (const [k, v] of firingTimes(episodes, grid(r.rule))) ours.set(k, [...(ours.get(k) ?? []), ...v]);
      }
      vmalert = compareFiring(vm.firing, ours, vm.wallMs, g);
    }

    const promtool: PromtoolResult[] = [];
    if (o.promtool) {
      for (const f of figures.faults) {
        for (const e of o.timeline.events[f.event]?.expect ?? []) {
          const cand = fired
            .filter((x) => x.rule.alert === e.alert && Object.entries(e.labels).every(([k, v]) => x.episode.labels[k] === v) && x.episode.activeAtMs >= f.atMs && x.episode.activeAtMs <= f.windowEndMs)
            .sort((a, b) => a.episode.firedAtMs! - b.episode.firedAtMs!)[0];
          if (!cand) continue;
          const episodes = perRule.find((r) => r.rule === cand.rule)!.episodes;
          promtool.push(
            await runPromtoolCase(
              { name: `${o.timeline.name}-${f.event}-${cand.rule.id}`, rule: cand.rule, episodes, episode: cand.episode, fromMs: meta.startMs, scrapeIntervalMs: meta.intervalMs },
              prom,
              o.rulesDir,
              o.workDir,
            ),
          );
        }
      }
    }
    return { figures, notifiedLabels, vmalert, promtool, queryMs, queries: results.reduce((n, r) => n + r.queries, 0), episodes: perRule.reduce((n, r) => n + r.episodes.length, 0) };
  } finally {
    await prom.stop();
  }
}
