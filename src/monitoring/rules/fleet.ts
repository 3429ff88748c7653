// Fleet: a node compared with the reference node(s) of the same exporter (targets with reference: true),
// and a validator as several targets ("vantages") see it.
import type { RuleGroupDef } from './types.js';

export const fleetRules: RuleGroupDef = {
  name: 'fleet',
  group: 'avalanche-fleet',
  header: 'Fleet: a node compared with the reference node(s) of the same exporter (targets with reference: true).',
  rules: ({ t, q }) => {
    const n = t.vantages;
    const seen = `max by (target, subnet, node_id) (${q.sel('avax_validator_connected')} unless on(target, node_id) ${q.sel('avax_node_info')})`;
    return [
      {
        alert: 'AvalancheNodeBehindReference',
        comment: `Value: blocks behind the best reference height. C builds a block every 1-2 s, so ${t.referenceBehindBlocksC} blocks
is about ${t.referenceBehindBlocksC === 30 ? 'a minute' : `${t.referenceBehindBlocksC}-${2 * t.referenceBehindBlocksC} s`}; P and X blocks are irregular, so a smaller gap held longer counts
(thresholds.referenceBehindBlocksC and referenceBehindBlocksPX).`,
        expr: `${q.sel('avax_chain_height_behind_reference', 'chain="C"')} > ${t.referenceBehindBlocksC}
  or
${q.sel('avax_chain_height_behind_reference', 'chain=~"P|X"')} > ${t.referenceBehindBlocksPX}
`,
        for: '10m',
        severity: 'warning',
        needs: 'a target with `reference: true`',
        summary: '{{ $labels.target }}: {{ $labels.chain }}-Chain is behind the reference',
        description:
          '{{ $labels.target }} is {{ $value }} blocks behind the reference node(s) on the {{ $labels.chain }}-Chain for more than 10 minutes. The node is not keeping up with the network.',
      },
      {
        alert: 'AvalancheValidatorFewVantagesConnected',
        comment: `A validator watched from several targets ("vantages"): fewer than ${n} of them see it
connected while at least ${n} watch it. Each node measures uptime independently, so a
validator that only part of the network reaches loses uptime at the others. The node's
view of itself is always "connected" and is left out (unless on(target, node_id)
avax_node_info). Value: the number of vantages that see it connected. ${n} is the
configured number of vantage targets (thresholds.vantages; alerts/README.md).
max by (target, ...) counts a target once even if two exporters watch it.
keep_firing_for: 2m: it mutes each vantage's AvalancheValidatorDisconnected (examples/alertmanager.yml), and
when the validator comes back the vantages see it at different cycles; resolving at the first few that do
let a slower vantage's AvalancheValidatorDisconnected out as a notification of an outage that was over (seen
on real nodes, test/realnet/: a validator down 15 minutes). Two minutes cover a vantage a few cycles late.`,
        expr: `sum by (subnet, node_id) (
  ${seen}
) < ${n}
and on(subnet, node_id)
count by (subnet, node_id) (
  ${seen}
) >= ${n}
`,
        for: '10m',
        keepFiringFor: '2m',
        severity: 'warning',
        needs: 'several targets watching the same node IDs',
        summary: `validator {{ $labels.node_id }} is seen connected by only {{ $value }} of {{ with printf \`count(max by (target) (${q.tsel('avax_validator_connected', 'subnet=%q', 'node_id=%q')} unless on(target, node_id) ${q.tsel('avax_node_info')}))\` $labels.subnet $labels.node_id | query }}{{ . | first | value }}{{ else }}?{{ end }} vantage targets`,
        description: `Only {{ $value }} of the targets that watch validator {{ $labels.node_id }} (subnet {{ $labels.subnet }}) see it connected, fewer than ${n}, for more than 10 minutes. Targets that see it disconnected: {{ range $i, $s := printf \`max by (target) (${q.tsel('avax_validator_connected', 'subnet=%q', 'node_id=%q')} unless on(target, node_id) ${q.tsel('avax_node_info')}) == 0\` $labels.subnet $labels.node_id | query | sortByLabel "target" }}{{ if $i }}, {{ end }}{{ $s.Labels.target }}{{ end }}. Each of those nodes counts the time against its uptime; if they hold enough stake the reward is at risk.`,
      },
    ];
  },
};
