// `npm run backtest [-- --timeline FILE ...]`: simulates the timelines (the shipped library in
// backtest/timelines/ by default), evaluates the shipped alert rules over them with real
// Prometheus, cross-checks the state machine with vmalert and promtool, and prints the figures and
// the summary line. Exit status 0 when every rule is within its false-page budget (budget.ts); 3 when a
// rule is over it; 2 when a cross-check disagrees or the exporter logged an error (the harness cannot be
// trusted then: before 3); 1 on a usage or setup error.
import { availableParallelism } from 'node:os';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAlertmanagerConfig } from './alertmanager-config.js';
import { checkRouting } from './amtool.js';
import { codeHash } from './cache.js';
import { analyse, type TimelineAnalysis } from './pipeline.js';
import { childPeakMb, onPath, stopAll } from './programs.js';
import { budgetLine, budgetRows, overLines, ruleBudgetTable, severityLines, type BudgetRow } from './budget.js';
import { alertTable, crossCheckLines, falsePageList, faultTable, flapList, noiseLines, summarize, summaryLine, type Summary } from './report.js';
import { loadRules, ruleMetrics } from './rules.js';
import type { Simulated } from './simulate.js';
import { parseTimeline, TimelineError, type Timeline } from './timeline.js';
import { hasVmalert } from './vmalert.js';
import { simulateAll } from './worker.js';

export const ROOT = resolve(fileURLToPath(new URL('../../', import.meta.url)));
export const LIBRARY = join(ROOT, 'backtest', 'timelines');

export interface CliOptions {
  timelines: string[];
  vmalert: boolean | undefined;
  promtool: boolean;
  fresh: boolean;
  workers: number;
  work: string;
  rules: string;
  alertmanager: string;
  json?: string;
  quiet: boolean;
}

const USAGE = `usage: npm run backtest [-- options]
  --timeline FILE      run this timeline (repeatable); default: every backtest/timelines/*.yaml
  --no-vmalert         skip the vmalert -replay cross-check (default: on when vmalert is installed)
  --vmalert            require it (fail when vmalert or victoria-metrics is missing)
  --no-promtool        skip the promtool test rules cross-check of the faults
  --fresh              simulate again even when the cache has the timeline's blocks
  --workers N          timelines simulated at once in worker threads (default: the number of CPUs, at most 4; 0: in the main thread)
  --work DIR           cache and scratch directory (default: .backtest/ in the repository)
  --rules DIR          alert rule files (default: alerts/)
  --alertmanager FILE  Alertmanager configuration (default: examples/alertmanager.yml)
  --json FILE          also write the figures as JSON
  --quiet              no progress lines on stderr`;

export function parseArgs(argv: readonly string[]): CliOptions {
  const o: CliOptions = {
    timelines: [],
    vmalert: undefined,
    promtool: true,
    fresh: false,
    workers: Math.max(1, Math.min(4, availableParallelism())),
    work: join(ROOT, '.backtest'),
    rules: join(ROOT, 'alerts'),
    alertmanager: join(ROOT, 'examples', 'alertmanager.yml'),
    quiet: false,
  };
  const value = (i: number, flag: string): string => {
    const v = argv[i + 1];
    if (v === undefined || v.startsWith('--')) throw new Error(`${flag} needs a value\n${USAGE}`);
    return v;
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const [flag, inline] = a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a, undefined];
    const take = () => inline ?? value(i++, flag);
    switch (flag) {
      case '--timeline': o.timelines.push(resolve(take())); break;
      case '--vmalert': o.vmalert = true; break;
      case '--no-vmalert': o.vmalert = false; break;
      case '--no-promtool': o.promtool = false; break;
      case '--fresh': o.fresh = true; break;
      case '--workers': {
        const n = Number(take());
        if (!Number.isInteger(n) || n < 0 || n > 16) throw new Error('--workers takes an integer from 0 (no worker thread) to 16');
        o.workers = n;
        break;
      }
      case '--work': o.work = resolve(take()); break;
      case '--rules': o.rules = resolve(take()); break;
      case '--alertmanager': o.alertmanager = resolve(take()); break;
      case '--json': o.json = resolve(take()); break;
      case '--quiet': o.quiet = true; break;
      case '--help': case '-h': throw new Error(USAGE);
      default: throw new Error(`unknown argument ${a}\n${USAGE}`);
    }
  }
  return o;
}

export interface BacktestOutput {
  readonly analyses: readonly TimelineAnalysis[];
  readonly sims: readonly Simulated[];
  readonly summary: Summary;
  /** every rule against its severity's false-page budget */
  readonly budget: readonly BudgetRow[];
  readonly text: string;
  /** the harness can be trusted: the cross-checks agree and the exporter logged no error */
  readonly ok: boolean;
}

/** The whole backtest; `log` gets progress lines. */
export async function backtest(o: CliOptions, log: (msg: string) => void): Promise<BacktestOutput> {
  const wall = performance.now();
  const files = o.timelines.length > 0 ? o.timelines : readdirSync(LIBRARY).filter((f) => /\.(ya?ml|json)$/.test(f)).sort().map((f) => join(LIBRARY, f));
  if (files.length === 0) throw new Error(`no timeline in ${LIBRARY}`);
  const rules = loadRules(o.rules, 15_000);
  const am = parseAlertmanagerConfig(readFileSync(o.alertmanager, 'utf8'));
  const texts = files.map((f) => {
    if (!existsSync(f)) throw new Error(`no such timeline: ${f}`);
    return readFileSync(f, 'utf8');
  });
  const timelines: Timeline[] = files.map((f, i) => parseTimeline(texts[i]!, f));
  const names = new Set<string>();
  for (const [i, t] of timelines.entries()) {
    if (names.has(t.name)) throw new Error(`two timelines are named ${t.name}`);
    names.add(t.name);
    for (const [k, e] of t.events.entries()) for (const x of e.expect ?? []) if (!rules.some((r) => r.alert === x.alert)) throw new TimelineError(files[i]!, [`events[${k}].expect: no shipped alert is named ${x.alert}`]);
  }
  const useVmalert = o.vmalert ?? hasVmalert();
  if (o.vmalert && !hasVmalert()) throw new Error('--vmalert: vmalert and victoria-metrics must be on PATH (apt-get install victoria-metrics)');
  for (const p of ['promtool', 'prometheus', 'amtool']) if (!onPath(p)) throw new Error(`${p} is not on PATH (apt-get install prometheus prometheus-alertmanager)`);

  const keep = [...ruleMetrics(rules)].sort();
  const code = codeHash(ROOT);
  const reqs = files.map((file, i) => ({ file, text: texts[i]!, cacheRoot: join(o.work, 'cache'), code, keep, fresh: o.fresh }));
  const analyses: TimelineAnalysis[] = new Array(files.length);
  let chain = Promise.resolve();
  const sims = await simulateAll(reqs, o.workers, log, (sim, i) => {
    const t = timelines[i]!;
    log(`${t.name}: ${sim.cached ? 'blocks from the cache' : `simulated in ${(sim.meta.wallMs / 1000).toFixed(0)} s (${sim.meta.cycles} cycles, ${sim.meta.samples} samples), backfilled in ${(sim.meta.backfillMs / 1000).toFixed(0)} s`}`);
    chain = chain.then(async () => {
      const a = await analyse({ timeline: t, sim, rules, rulesDir: o.rules, am, workDir: join(o.work, 'scratch', t.name), vmalert: useVmalert, promtool: o.promtool });
      analyses[i] = a;
      log(`${t.name}: ${a.queries} queries in ${(a.queryMs / 1000).toFixed(0)} s${a.vmalert ? `, vmalert ${(a.vmalert.wallMs / 1000).toFixed(0)} s` : ''}${a.promtool.length ? `, promtool ${a.promtool.length} cases` : ''}`);
    });
  });
  await chain;
  const routing = await checkRouting(o.alertmanager, am.route, analyses.flatMap((a) => a.notifiedLabels));

  const healthyNodeDays = analyses.reduce((n, a) => n + a.figures.healthyNodeDays, 0);
  const budget = budgetRows(rules, (id) => analyses.reduce((n, a) => n + (a.figures.perRule.get(id)?.falsePages ?? 0), 0), healthyNodeDays);
  const over = overLines(budget);
  const summary = summarize(analyses, over.length);
  const starts = new Map(sims.map((s) => [s.meta.timeline, s.meta.startMs]));
  const errors = sims.flatMap((s) => s.meta.exporterErrors.map((e) => `${s.meta.timeline}: ${e}`));
  const crossBad = analyses.some((a) => (a.vmalert?.mismatches.length ?? 0) > 0 || a.promtool.some((p) => !p.ok)) || routing.failures.length > 0;
  const rss = process.resourceUsage().maxRSS / 1024;
  const children = [...childPeakMb].sort((a, b) => b[1] - a[1]).map(([n, mb]) => `${n} ${mb.toFixed(0)} MB`).join(', ');
  const text = [
    `# Backtest: ${timelines.length} timelines, ${rules.length} rules, scrape and collection every ${[...new Set(sims.map((s) => s.meta.intervalMs / 1000))].join('/')} s, rules evaluated every ${rules[0]!.intervalMs / 1000} s`,
    '',
    '## Per alert',
    alertTable(rules, analyses, summary.nodeWeeks),
    '',
    '## Per fault (notifications after inhibition)',
    faultTable(analyses),
    '',
    `## False-page budget (${healthyNodeDays.toFixed(1)} healthy node-days; alerts/README.md "False-page budget")`,
    ruleBudgetTable(budget),
    '',
    ...severityLines(budget, healthyNodeDays),
    '',
    '## Noise (what the alerts went through)',
    ...noiseLines(sims.map((x) => x.meta), analyses),
    '',
    '## False pages',
    falsePageList(analyses, starts),
    '',
    '## Flaps',
    flapList(analyses, starts),
    '',
    '## Cross-checks',
    crossCheckLines(analyses, routing),
    ...(errors.length ? ['', `## Exporter errors (${errors.length})`, ...errors.slice(0, 20)] : []),
    '',
    `wall time ${((performance.now() - wall) / 1000).toFixed(0)} s; peak memory: backtest process ${rss.toFixed(0)} MB (worker threads included)${children ? `, ${children}` : ''}`,
    budgetLine(budget, healthyNodeDays),
    ...over,
    summaryLine(summary),
  ].join('\n');
  return { analyses, sims, summary, budget, text, ok: !crossBad && errors.length === 0 };
}

async function main(): Promise<void> {
  let o: CliOptions;
  try {
    o = parseArgs(process.argv.slice(2));
  } catch (e) {
    console.error(e instanceof Error ? e.message : String(e));
    process.exit(1);
  }
  const log = o.quiet ? () => {} : (msg: string) => console.error(`[backtest] ${msg}`);
  // Ctrl-C or a kill: stop Prometheus, vmalert and the others before leaving
  for (const sig of ['SIGINT', 'SIGTERM'] as const) {
    process.once(sig, () => {
      console.error(`[backtest] ${sig}: stopping the programs it started`);
      void stopAll().finally(() => process.exit(130));
    });
  }
  try {
    const out = await backtest(o, log);
    console.log(out.text);
    if (o.json) writeFileSync(o.json, JSON.stringify({ summary: out.summary, budget: out.budget, timelines: out.analyses.map((a) => ({ ...a.figures, perRule: Object.fromEntries(a.figures.perRule) })) }, null, 1));
    process.exitCode = !out.ok ? 2 : out.summary.overBudget > 0 ? 3 : 0;
  } catch (e) {
    console.error(e instanceof Error ? e.message : String(e));
    process.exitCode = 1;
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
