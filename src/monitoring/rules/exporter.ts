// The exporter itself and its collectors.
import { BOOTSTRAP_GATED_COLLECTORS, SLOW_COLLECTORS, SLOW_INTERVAL_SECONDS, collectorsByInterval } from '../collector-facts.js';
import { durationWords, promDuration } from '../duration.js';
import type { RuleGroupDef } from './types.js';

export const exporterRules: RuleGroupDef = {
  name: 'exporter',
  group: 'avalanche-exporter',
  header: 'The exporter itself and its collectors.',
  rules: ({ t, q }) => {
    const slow = SLOW_COLLECTORS.join('|');
    // Silences a collector alert for the collectors the node refuses until it is bootstrapped (chain routes,
    // info.uptime) while a chain of the target is still bootstrapping: AvalancheChainNotBootstrapped pages for it.
    const gatedWhileBootstrapping = (metric: string) => `unless on(target, collector)
(
  ${q.sel(metric, `collector=~"${BOOTSTRAP_GATED_COLLECTORS.join('|')}"`)}
    and on(target)
  (min by (target) (${q.sel('avax_chain_bootstrapped')}) == 0)
)`;
    return [
      {
        alert: 'AvalancheTargetDown',
        expr: `${q.sel('avax_up')} == 0`,
        for: '5m',
        severity: 'critical',
        summary: '{{ $labels.target }}: node does not answer the exporter',
        description:
          'The exporter has had no valid answer from {{ $labels.target }} (avax_up = {{ $value }}) for more than 5 minutes. The node is down, unreachable, or its HTTP API is not listening where the exporter expects.',
      },
      {
        alert: 'AvalancheCollectorFailing',
        comment: `Silent while the whole target is down (AvalancheTargetDown covers that), and for the
collectors the node refuses until it is bootstrapped while a chain is still bootstrapping:
${BOOTSTRAP_GATED_COLLECTORS.join(', ')}.
Chain routes (/ext/bc/..., /ext/index/...) answer 503 until then, info.uptime "still bootstrapping" (a real v1.15.0
node restarted cut off from its peers), and AvalancheChainNotBootstrapped already pages for that one cause.
for: thresholds.collectorFailingFor.`,
        expr: `(
  ${q.sel('avax_collector_success')} == 0
    unless on(target)
  (${q.sel('avax_up')} == 0)
)
${gatedWhileBootstrapping('avax_collector_success')}
`,
        for: promDuration(t.collectorFailingFor),
        severity: 'warning',
        summary: '{{ $labels.target }}: collector {{ $labels.collector }} is failing',
        description: `Collector {{ $labels.collector }} for {{ $labels.target }} has failed (success = {{ $value }}) for more than ${durationWords(t.collectorFailingFor)} while the node itself answers. Its metrics are missing or stale.`,
      },
      {
        alert: 'AvalancheExporterDataStale',
        comment: `Value: seconds since the collector's last success, against 3 default collection intervals:
${collectorsByInterval()
  .map(([s, names]) => `${names.join(', ')} every ${promDuration(s)}`)
  .join(';\n')}.
Every ${promDuration(SLOW_INTERVAL_SECONDS)} or slower: thresholds.dataStaleSlowCollectors (${promDuration(t.dataStaleSlowCollectors)}); the others: thresholds.dataStale (${promDuration(t.dataStale)}).
Silent, as AvalancheCollectorFailing, while the target is down and for the chain-route collectors while a chain
is bootstrapping (a re-bootstrap after an upgrade: backtest healthy-week-1 paged it twice before).`,
        expr: `(
  (
    (time() - ${q.sel('avax_collector_last_success_timestamp_seconds', `collector=~"${slow}"`)} > ${t.dataStaleSlowCollectors})
    or
    (time() - ${q.sel('avax_collector_last_success_timestamp_seconds', `collector!~"${slow}"`)} > ${t.dataStale})
  )
  unless on(target)
  (${q.sel('avax_up')} == 0)
)
${gatedWhileBootstrapping('avax_collector_last_success_timestamp_seconds')}
`,
        for: '5m',
        severity: 'warning',
        summary: '{{ $labels.target }}: {{ $labels.collector }} data is {{ $value | humanizeDuration }} old',
        description:
          'Collector {{ $labels.collector }} for {{ $labels.target }} last succeeded {{ $value | humanizeDuration }} ago, more than 3 collection intervals. The exporter may be stuck or overloaded.',
      },
      {
        alert: 'AvalancheExporterAbsent',
        comment: `avax_exporter_build_info is always exported, so this works whatever the scrape job is
called; it fires when no avalanche-exporter${Object.keys(q.selector).length ? ' matching the selector' : ''} is scraped successfully at all.`,
        expr: `absent(${q.sel('avax_exporter_build_info')})`,
        for: '5m',
        severity: 'critical',
        summary: 'avalanche-exporter metrics are absent',
        description: `No series ${q.sel('avax_exporter_build_info')} in Prometheus for more than 5 minutes (absent = {{ $value }}): the exporter is down, not scraped, or failing every scrape. None of the other Avalanche alerts can fire meanwhile.`,
      },
      {
        alert: 'Watchdog',
        comment: `Always firing, on purpose: the heartbeat of the alerting pipeline (Prometheus evaluates the rules, reaches
Alertmanager, Alertmanager notifies). Route it to its own receiver, a dead man's switch that alerts when the
notifications stop (examples/alertmanager.yml); never page on it. It reads no series, so it fires with or without the exporter.`,
        expr: 'vector(1)',
        for: '0s',
        severity: 'info',
        summary: 'The alerting pipeline works (this alert always fires)',
        description:
          "This alert always fires: it proves that Prometheus evaluates the avalanche-exporter rules and that Alertmanager delivers their notifications. Route it to a dead man's switch (a heartbeat service that alerts when it stops hearing from Alertmanager), not to people. When its notifications stop, the alerting pipeline is broken and no other alert would reach you.",
      },
    ];
  },
};
