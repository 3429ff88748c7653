// Real Prometheus and Alertmanager watching the realnet exporter: Prometheus scrapes it every second and
// evaluates the shipped rules (alerts/*.rules.yaml as generated, in a copy whose `for:` and windows under an
// hour run ten times faster: REALNET_SHORTENING); Alertmanager runs the shipped examples/alertmanager.yml (routes,
// grouping, inhibition) with its waits ten times shorter too, and sends every notification to a webhook in the test.
// A poller keeps the state history of every alert, so a test can ask what fired in a span of time.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { onPath, startProgram, waitHttpOk, type Program } from '../e2e/helpers/programs.js';
import { promAlerts, prometheusConfig } from '../e2e/helpers/prometheus.js';
import { scaledShortening, writeShortenedRules } from '../e2e/helpers/rules.js';
import { startWebhook, type WebhookReceiver } from '../e2e/helpers/webhook.js';
import { parseDuration } from '../../src/monitoring/duration.js';
import { ROOT, freePort, waitFor } from '../helpers/proc.js';

export const PROMETHEUS = onPath('prometheus');
export const ALERTMANAGER = onPath('prometheus-alertmanager');

/**
 * Ten times faster, never under 15 s (three of the exporter's 5 s cycles): `for: 5m` → 30s, `[10m]` → `[60s]`;
 * an hour or more stays. Not the end-to-end test's seconds: real nodes make a C-Chain block every few seconds
 * only while the traffic runs, and a node that stops or restarts takes seconds, not milliseconds, to be seen.
 */
export const REALNET_SHORTENING = scaledShortening(0.1, 15);

/**
 * examples/alertmanager.yml as shipped, its group_wait, group_interval and repeat_interval ten times shorter
 * (at least 1 s: 30s → 3s, 5m → 30s) and every receiver's URL the test's webhook: the routes, grouping and
 * inhibition an operator gets, on the realnet's time scale.
 */
export function realnetAlertmanagerConfig(shipped: string, webhook: string): string {
  const scale = (d: string): string => {
    const s = parseDuration(d);
    if (s === undefined) throw new Error(`examples/alertmanager.yml: cannot read the duration ${d}`);
    return `${Math.max(1, Math.round(s / 10))}s`;
  };
  const out = shipped
    .replace(/^(\s*(?:group_wait|group_interval|repeat_interval):\s*)(\S+)\s*$/gm, (_m, k: string, d: string) => `${k}${scale(d)}`)
    .replace(/^(\s*-?\s*url:\s*)\S+(.*)$/gm, (_m, k: string, rest: string) => `${k}${JSON.stringify(webhook)}${rest}`);
  if (out === shipped) throw new Error('examples/alertmanager.yml: nothing to rewrite');
  return out;
}

/**
 * One episode of one alert (name + labels): when the poller first saw it pending, firing, and last saw it. An
 * alert that left Prometheus' list for longer than a few polls and came back is a new episode.
 */
export interface AlertSeen {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly firstPendingMs?: number;
  firstFiringMs?: number;
  lastSeenMs: number;
}

/** An alert absent from Prometheus' list for longer than this ends its episode (the poller asks every second). */
const EPISODE_GAP_MS = 5_000;

export interface Alerting {
  readonly prometheus: string;
  readonly hook: WebhookReceiver;
  /** Episodes of alerts that were firing at some point in [fromMs, toMs] (Watchdog left out). */
  firedBetween(fromMs: number, toMs?: number): AlertSeen[];
  /** Everything seen so far, for failure messages. */
  describe(sinceMs?: number): string;
  stop(): Promise<void>;
}

const keyOf = (labels: Record<string, string>) => JSON.stringify(Object.entries(labels).sort());

export async function startAlerting(exporterAddress: string): Promise<Alerting> {
  if (!PROMETHEUS || !ALERTMANAGER) throw new Error('prometheus and prometheus-alertmanager must be on PATH (Debian packages)');
  const tmp = mkdtempSync(join(tmpdir(), 'avax-realnet-alerting-'));
  const rulesDir = join(tmp, 'rules');
  for (const d of [rulesDir, join(tmp, 'am'), join(tmp, 'prom')]) mkdirSync(d);
  writeShortenedRules(resolve(ROOT, 'alerts'), rulesDir, REALNET_SHORTENING);
  const hook = await startWebhook();
  const [amPort, promPort] = [await freePort(), await freePort()];
  writeFileSync(join(tmp, 'alertmanager.yml'), realnetAlertmanagerConfig(readFileSync(resolve(ROOT, 'examples/alertmanager.yml'), 'utf8'), hook.url));
  const progs: Program[] = [];
  const am = startProgram('alertmanager', ALERTMANAGER, [`--config.file=${join(tmp, 'alertmanager.yml')}`, `--storage.path=${join(tmp, 'am')}`, `--web.listen-address=127.0.0.1:${amPort}`, '--cluster.listen-address=', '--log.level=warn'], tmp);
  progs.push(am);
  writeFileSync(join(tmp, 'prometheus.yml'), prometheusConfig({ exporter: exporterAddress, alertmanager: `127.0.0.1:${amPort}`, ruleGlob: join(rulesDir, '*.rules.yaml') }));
  const prom = startProgram('prometheus', PROMETHEUS, [`--config.file=${join(tmp, 'prometheus.yml')}`, `--storage.tsdb.path=${join(tmp, 'prom')}`, `--web.listen-address=127.0.0.1:${promPort}`, '--rules.alert.resend-delay=2s', '--log.level=warn'], tmp);
  progs.push(prom);
  const base = `http://127.0.0.1:${promPort}`;
  await Promise.all([waitHttpOk(am, `http://127.0.0.1:${amPort}/-/ready`, 20_000), waitHttpOk(prom, `${base}/-/ready`, 20_000)]);

  /** The episodes of each alert, oldest first. */
  const seen = new Map<string, AlertSeen[]>();
  const episodes = () => [...seen.values()].flat();
  let polling = true;
  const poller = (async () => {
    while (polling) {
      try {
        const now = Date.now();
        for (const a of await promAlerts(base)) {
          const name = a.labels['alertname'] ?? '?';
          const k = keyOf(a.labels);
          const list = seen.get(k) ?? [];
          let s = list.at(-1);
          if (!s || now - s.lastSeenMs > EPISODE_GAP_MS) list.push((s = { name, labels: a.labels, firstPendingMs: now, lastSeenMs: now }));
          s.lastSeenMs = now;
          if (a.state === 'firing' && s.firstFiringMs === undefined) s.firstFiringMs = now;
          seen.set(k, list);
        }
      } catch {
        /* Prometheus busy: the next poll */
      }
      await new Promise((r) => setTimeout(r, 1_000));
    }
  })();
  // The exporter is scraped and the rules evaluated before anything is asked.
  await waitFor(async () => ((await (await fetch(`${base}/api/v1/query?query=up`)).json()) as { data: { result: unknown[] } }).data.result.length > 0 || undefined, 20_000, 250);

  return {
    prometheus: base,
    hook,
    firedBetween: (fromMs, toMs = Date.now()) => episodes().filter((s) => s.name !== 'Watchdog' && s.firstFiringMs !== undefined && s.lastSeenMs >= fromMs && s.firstFiringMs <= toMs),
    describe: (sinceMs = 0) =>
      episodes()
        .filter((s) => s.lastSeenMs >= sinceMs)
        .map((s) => `${s.firstFiringMs ? 'fired' : 'pending'} ${s.name} ${JSON.stringify(s.labels)} ${new Date(s.firstPendingMs ?? 0).toISOString()}–${new Date(s.lastSeenMs).toISOString()}`)
        .join('\n'),
    async stop() {
      polling = false;
      await poller;
      await Promise.all(progs.map((p) => p.stop(5_000)));
      await hook.close();
      rmSync(tmp, { recursive: true, force: true });
    },
  };
}
