// Index API (/ext/index/<chain>/<kind>), only on nodes running with --index-enabled.
import { durationWords, promDuration } from '../duration.js';
import type { RuleGroupDef } from './types.js';

export const indexRules: RuleGroupDef = {
  name: 'index',
  group: 'avalanche-index',
  header: 'Index API (/ext/index/<chain>/<kind>), only on nodes running with --index-enabled.\nX/tx and X/vtx stopped growing in 2023 and are never alerted on: only kind="block".',
  rules: ({ t, q }) => {
    const stall = promDuration(t.indexStallWindow);
    const lookback = promDuration(t.indexUnavailableLookback);
    return [
      {
        alert: 'AvalancheIndexStalled',
        comment: `Value: seconds since the index last accepted a container. Fires when the index's last
accepted timestamp did not change in ${stall} (thresholds.indexStallWindow) while the same chain's
height grew. Silent while the index collector itself fails (its last values would look stalled;
see AvalancheCollectorFailing).`,
        expr: `(
  time() - ${q.sel('avax_index_last_accepted_timestamp_seconds', 'chain=~"P|C|X"', 'kind="block"')}
)
and on(target, chain, kind)
(
  changes(${q.sel('avax_index_last_accepted_timestamp_seconds', 'chain=~"P|C|X"', 'kind="block"')}[${stall}]) == 0
)
and on(target, chain)
(
  delta(${q.sel('avax_chain_height', 'chain=~"P|C|X"')}[${stall}]) > 0
)
unless on(target)
(
  ${q.sel('avax_collector_success', 'collector="index-last-accepted"')} == 0
)
`,
        for: '5m',
        severity: 'warning',
        summary: '{{ $labels.target }}: {{ $labels.chain }}/{{ $labels.kind }} index is stalled',
        description:
          'The {{ $labels.chain }}/{{ $labels.kind }} index on {{ $labels.target }} last accepted a container {{ $value | humanizeDuration }} ago, while the {{ $labels.chain }}-Chain height kept growing. Clients of /ext/index/{{ $labels.chain }}/{{ $labels.kind }} see stale data.',
      },
      {
        alert: 'AvalancheIndexUnavailable',
        comment: `Only for an index that answered at some point in the last ${lookback} (thresholds.indexUnavailableLookback),
so nodes without --index-enabled never fire; silent while its chain bootstraps (the index answers 503 until then:
AvalancheChainNotBootstrapped pages for that).`,
        expr: `${q.sel('avax_index_available', 'kind="block"')} == 0
  and
max_over_time(${q.sel('avax_index_available', 'kind="block"')}[${lookback}]) == 1
  unless on(target, chain)
${q.sel('avax_chain_bootstrapped')} == 0
`,
        for: '10m',
        severity: 'warning',
        summary: '{{ $labels.target }}: {{ $labels.chain }}/{{ $labels.kind }} index is gone',
        description: `/ext/index/{{ $labels.chain }}/{{ $labels.kind }} on {{ $labels.target }} answered within the last ${durationWords(t.indexUnavailableLookback)} but has been unavailable (available = {{ $value }}) for more than 10 minutes.`,
      },
    ];
  },
};
