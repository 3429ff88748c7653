// Issue 27 items 1 and 2: the uptime requirement of the node's own validation (per cycle for an ACP-236
// auto-renewed validator) as a budget of downtime. Part of the validator group (validator.rules.yaml), in
// its own file to keep validator.ts short.
//
// Sources: the requirement is platform-validators' (80 %, 90 % after Helicon: ACP-267; every auto-renewed
// cycle: ACP-236 needs Helicon); an auto-renewed validator is re-staked at the end of a cycle only when it
// is eligible for the reward, else it leaves the validator set (ACP-236 "Auto-Renewed Staking", iteration
// 2: "auto-restaking happens only if the validator is eligible for rewards"); its startTime/endTime are the
// cycle's (avalanchego vms/platformvm/txs/executor/standard_tx_executor_auto_renewed_test.go).
import { durationWords, percent, promDuration } from '../duration.js';
import { num } from '../text.js';
import { PRIMARY_NETWORK, type AlertRule, type RuleContext } from './types.js';

const P = `subnet="${PRIMARY_NETWORK}"`;
const ON = 'on(target, subnet, node_id)';

export function uptimeBudgetRules({ t, q }: RuleContext): AlertRule[] {
  // The derived series vanish while the node is down (the stale-value rule): the burn keeps their last
  // values for the slow window.
  const lookback = promDuration(t.uptimeBudgetSlowWindow);
  const last = (metric: string) => `last_over_time(${q.sel(metric, P)}[${lookback}])`;
  // The whole downtime budget of the own validation or cycle, seconds: (1 - requirement) x duration. Only the
  // own validation has avax_validator_downtime_budget_seconds.
  const total = `(
    (1 - ${last('avax_validator_uptime_requirement_ratio')})
      * (${last('avax_validator_cycle_end_timestamp_seconds')} - ${last('avax_validator_start_timestamp_seconds')})
      and ${ON}
    ${last('avax_validator_downtime_budget_seconds')}
  )`;
  // The share of that budget spent in `long` at the pace of the last `w` (the time the exporter could
  // not reach the node: avax_up 0). Matched on every label but subnet and node_id, so that two exporters
  // scraping one node (an HA pair) give one alert each, not a many-to-many error.
  const spent = (w: number, long: number) =>
    `(1 - avg_over_time(${q.sel('avax_up')}[${promDuration(w)}])) * ${long}
    / ignoring(subnet, node_id) group_right()
  ${total}`;
  const pair = (share: number, long: number, short: number) => `(
  ${spent(long, long)}
) >= ${num(share)}
  and
(
  ${spent(short, long)}
) >= ${num(share)}`;
  // Annotations: the last value within the slow window (the series are gone while the node is down).
  const ownQuery = (metric: string, fn: string, fallback: string, over = false) =>
    `{{ with printf \`${over ? 'last_over_time(' : ''}${q.tsel(metric, 'target=%q', 'subnet=%q', 'node_id=%q')}${over ? `[${lookback}])` : ''}\` $labels.target $labels.subnet $labels.node_id | query }}{{ . | first | value | ${fn} }}{{ else }}${fallback}{{ end }}`;
  const requirementText = (over = false) => ownQuery('avax_validator_uptime_requirement_ratio', 'humanizePercentage', '80% or 90%', over);
  const boundaryText = (over = false) => ownQuery('avax_validator_cycle_end_timestamp_seconds', 'humanizeTimestamp', 'the end of the cycle', over);
  return [
    {
      alert: 'AvalancheValidatorForcedExitRisk',
      comment: `ACP-236 auto-renewed validator (avalanchego master, after Helicon): the best uptime its current cycle can
still reach is below the cycle's requirement (avax_validator_uptime_requirement_reachable 0), so at the end
of the cycle it is removed from the validator set without reward instead of being re-staked. Not when it
already asked to leave then (avax_validator_next_period_seconds 0). v1.14.2, pre-Helicon and fixed-end
validations have avax_validator_auto_renewed 0: silent (AvalancheValidatorRewardsLost covers them).`,
      // Value: the best uptime the cycle can still reach (below its requirement).
      expr: `(
  ${q.sel('avax_validator_uptime_max_achievable_ratio')}
    and ${ON}
  (${q.sel('avax_validator_uptime_requirement_reachable')} == 0)
    and ${ON}
  (${q.sel('avax_validator_auto_renewed')} == 1)
)
unless ${ON}
${q.sel('avax_validator_next_period_seconds')} == 0
`,
      for: '15m',
      severity: 'critical',
      summary: '{{ $labels.target }}: auto-renewed validator {{ $labels.node_id }} will be removed at the end of its cycle',
      description: `The auto-renewed validation (ACP-236) of {{ $labels.node_id }} (watched by {{ $labels.target }}) can no longer reach its uptime requirement of ${requirementText()} in this cycle: at best {{ $value | humanizePercentage }}. At ${boundaryText()} the P-Chain removes it from the validator set instead of re-staking it: the cycle's reward is lost, the stake returned, delegations end. Keep the node up and plan to register it again (AddAutoRenewedValidatorTx) after the boundary.`,
    },
    {
      alert: 'AvalancheUptimeBudgetBurn',
      comment: `Multiwindow, multi-burn-rate (Google SRE workbook, "Alerting on SLOs"): the node's own validation (an
auto-renewed validator: its cycle) may be down (1 - requirement) x its duration and keep the reward. Fast:
${percent(t.uptimeBudgetFastBurn)} % of that budget spent in ${promDuration(t.uptimeBudgetFastWindow)}, at that pace over the last ${promDuration(t.uptimeBudgetFastShortWindow)} too; slow: ${percent(t.uptimeBudgetSlowBurn)} % in
${promDuration(t.uptimeBudgetSlowWindow)} and ${promDuration(t.uptimeBudgetSlowShortWindow)} (thresholds.uptimeBudget*). Downtime = the exporter could not reach the node
(avax_up 0). One alert for both (one page per outage); its value is the fast window's share when that fires,
else the slow one's. A long validation has a large budget: an hour's outage of a
year-long one never fires; a 48-hour cycle (ACP-273's minimum after Helicon) fires after minutes.`,
      expr: `${pair(t.uptimeBudgetFastBurn, t.uptimeBudgetFastWindow, t.uptimeBudgetFastShortWindow)}
or
${pair(t.uptimeBudgetSlowBurn, t.uptimeBudgetSlowWindow, t.uptimeBudgetSlowShortWindow)}
`,
      for: '2m',
      severity: 'critical',
      summary: '{{ $labels.target }}: downtime is burning the reward budget of {{ $labels.node_id }} ({{ $value | humanizePercentage }} of it)',
      description: `{{ $labels.target }} was unreachable for long enough to spend {{ $value | humanizePercentage }} of the downtime its validation (an auto-renewed validator: its cycle) can afford under its uptime requirement of ${requirementText(true)}, in the last ${durationWords(t.uptimeBudgetFastWindow)} (fast burn: ${percent(t.uptimeBudgetFastBurn)} % or more, still going on) or the last ${durationWords(t.uptimeBudgetSlowWindow)} (slow burn: ${percent(t.uptimeBudgetSlowBurn)} % or more). Downtime left before the reward is lost: {{ with printf \`${q.tsel('avax_validator_downtime_budget_seconds', 'target=%q', 'subnet=%q', 'node_id=%q')}\` $labels.target $labels.subnet $labels.node_id | query }}{{ . | first | value | humanizeDuration }}{{ else }}unknown while the node is down{{ end }}, until ${boundaryText(true)}. Bring the node back and keep it up.`,
    },
  ];
}
