// Uptime as the network sees this node, and the watched validations (info.uptime,
// platform.getCurrentValidators, ACP-77 L1 validators).
import { durationWords, percent, promDuration, secondsExpr } from '../duration.js';
import { num } from '../text.js';
import { l1WeightAtRiskRules } from './l1-weight-at-risk.js';
import { uptimeBudgetRules } from './validator-budget.js';
import { chainRules, l1ValidatorInactive } from './validator-chains.js';
import { PRIMARY_NETWORK, type AlertRule, type RuleGroupDef } from './types.js';

const P = `subnet="${PRIMARY_NETWORK}"`;

export const validatorRules: RuleGroupDef = {
  name: 'validator',
  group: 'avalanche-validator',
  header: `Uptime as the network sees this node, and the watched validations.\nThe primary network subnet ID is ${PRIMARY_NETWORK}.`,
  rules: ({ t, q }) => {
    const requirement = q.sel('avax_validator_uptime_requirement_ratio', P);
    // As the stake the node is connected to sees it (uptime-connected-stake.ts: info.uptime counts every validator
    // that is down as 0; one of five stopped paged every other node of a real v1.15.0 network); info.uptime's own
    // figure where node-metrics gives no connected share.
    const weighted = `(${q.sel('avax_uptime_connected_weighted_average_ratio')} or ${q.sel('avax_uptime_weighted_average_ratio')})`;
    const rewardAtStake = `{{ with printf \`max(${q.tsel('avax_validator_potential_reward_avax', 'target=%q', P)} and on(target, node_id) ${q.tsel('avax_node_info', 'target=%q')})\` $labels.target $labels.target | query }}{{ . | first | value | printf "%.2f" }} AVAX{{ else }}unknown (no avax_validator_potential_reward_avax for the node's own primary-network validation){{ end }}`;
    const ending = (severity: AlertRule['severity'], seconds: number, comment?: string): AlertRule => ({
      alert: 'AvalancheValidationEndingSoon',
      ...(comment ? { comment } : {}),
      // An auto-renewed validator (ACP-236) that renews (next period > 0) does not end at its endTime: that is
      // the end of its cycle, when it is re-staked.
      expr: `${q.sel('avax_validator_end_timestamp_seconds')} - time() < ${secondsExpr(seconds)}
  unless on(target, subnet, node_id)
${q.sel('avax_validator_next_period_seconds')} > 0
`,
      for: '10m',
      severity,
      summary: '{{ $labels.target }}: validation of {{ $labels.node_id }} ends in {{ $value | humanizeDuration }}',
      description:
        'The validation of {{ $labels.node_id }} on subnet {{ $labels.subnet }} (watched by {{ $labels.target }}) ends in {{ $value | humanizeDuration }}. Plan the re-stake so the node does not drop out of the validator set.',
    });
    const balanceLow = (severity: AlertRule['severity'], seconds: number, comment?: string): AlertRule => ({
      alert: 'AvalancheL1ValidatorBalanceLow',
      ...(comment ? { comment } : {}),
      expr: `${q.sel('avax_l1_validator_balance_runway_seconds')} < ${secondsExpr(seconds)} > 0`,
      for: '10m',
      severity,
      summary: '{{ $labels.target }}: L1 validator {{ $labels.node_id }} runs out of balance in {{ $value | humanizeDuration }}',
      description: `The balance of L1 validator {{ $labels.node_id }} on {{ $labels.subnet }} ({{ with printf \`max(${q.tsel('avax_l1_validator_balance_avax', 'target=%q', 'subnet=%q', 'node_id=%q')})\` $labels.target $labels.subnet $labels.node_id | query }}{{ . | first | value | printf "%.4f" }}{{ else }}?{{ end }} AVAX, watched by {{ $labels.target }}) pays the continuous fee for {{ $value | humanizeDuration }} more at the current price. At 0 the validator becomes inactive and stops validating. Top it up with an IncreaseL1ValidatorBalanceTx.`,
    });
    const capacity = t.delegationCapacityLowAvax;
    // A watched ID that must be a validator and is not. An L1 validator listed with balance 0 is left to
    // AvalancheL1ValidatorInactive, which says why (disabled or out of balance): it is in the list.
    const expectedInactive = `(
  (
    ${q.sel('avax_validator_active')} == 0
      and on(target, subnet, node_id)
    ${q.sel('avax_validator_expected_active')} == 1
  )
  unless on(target, subnet, node_id)
  ${q.sel('avax_l1_validator_balance_avax')} == 0
)`;
    const l1ZeroNote = 'An L1 validator listed with balance 0 pages as AvalancheL1ValidatorInactive instead.';
    const measuredAt = `{{ with printf \`${q.tsel('avax_uptime_rewarding_stake_requirement_ratio', 'target=%q')}\` $labels.target | query }}{{ . | first | value | humanizePercentage }}{{ else }}the node's own requirement (80% or 90%){{ end }}`;
    const validationNeeds = `{{ with printf \`max(${q.tsel('avax_validator_uptime_requirement_ratio', 'target=%q', P)} and on(target, node_id) ${q.tsel('avax_node_info', 'target=%q')})\` $labels.target $labels.target | query }}{{ . | first | value | humanizePercentage }}{{ else }}80% or 90%{{ end }}`;
    return [
      {
        alert: 'AvalancheUptimeBelowRequirement',
        comment: `Requirement = the primary-network validation's avax_validator_uptime_requirement_ratio
(0.8, or 0.9 for validations started after Helicon); ${num(t.uptimeRequirementFallback)} when the target exports none
(thresholds.uptimeRequirementFallback). The uptime is info.uptime's over the stake the node is connected to
(avax_uptime_connected_weighted_average_ratio): a validator that is down counts 0 in info.uptime but decides nothing.`,
        expr: `(
  ${weighted}
    < on(target) group_left()
  max by (target) (${requirement})
)
or
(
  ${weighted} < ${num(t.uptimeRequirementFallback)}
    unless on(target)
  ${requirement}
)
`,
        for: '15m',
        severity: 'critical',
        summary: '{{ $labels.target }}: uptime {{ $value | humanizePercentage }} is below the reward requirement',
        description: `The stake-weighted average uptime of {{ $labels.target }} as seen by the stake it is connected to is {{ $value | humanizePercentage }}, below the validation's reward requirement (avax_validator_uptime_requirement_ratio, 80% or 90%). If it stays there until the validation ends, the node gets no staking reward. Potential reward at stake: ${rewardAtStake}.`,
      },
      {
        alert: 'AvalancheUptimeAtRisk',
        comment: `Less than ${num(t.uptimeAtRiskMargin)} above the requirement (thresholds.uptimeAtRiskMargin), below it included: a
dip under the requirement does not restart its 'for' (the backtest's uptime-at-risk timeline paged 5m late when it
did). AvalancheUptimeBelowRequirement inhibits it (examples/alertmanager.yml).`,
        expr: `(
  ${weighted}
    < on(target) group_left()
  (max by (target) (${requirement}) + ${num(t.uptimeAtRiskMargin)})
)
or
(
  ${weighted} < ${num(t.uptimeRequirementFallback + t.uptimeAtRiskMargin)}
    unless on(target)
  ${requirement}
)
`,
        for: '15m',
        severity: 'warning',
        summary: '{{ $labels.target }}: uptime {{ $value | humanizePercentage }} is close to the reward requirement',
        description: `The stake-weighted average uptime of {{ $labels.target }} is {{ $value | humanizePercentage }}, less than ${percent(t.uptimeAtRiskMargin)} points above the validation's reward requirement (80% or 90%). A few more hours offline can cost the staking reward. Potential reward at stake: ${rewardAtStake}.`,
      },
      {
        alert: 'AvalancheValidatorRewardsLost',
        comment: `The best uptime still reachable if the node stays up until the end of the validation is
below the requirement: the reward of this validation is gone whatever happens now.
avax_validator_uptime_max_achievable_ratio exists only for the node's own primary-network
validation, so API nodes and L1 entries never match.`,
        expr: `${q.sel('avax_validator_uptime_max_achievable_ratio')}
  < on(target, subnet, node_id) group_left()
max by (target, subnet, node_id) (${q.sel('avax_validator_uptime_requirement_ratio')})
`,
        for: '15m',
        severity: 'critical',
        summary: '{{ $labels.target }}: the staking reward of {{ $labels.node_id }} is lost (best reachable uptime {{ $value | humanizePercentage }})',
        description: `Even if {{ $labels.target }} stays up until the validation of {{ $labels.node_id }} ends, its uptime can reach at most {{ $value | humanizePercentage }}, below the reward requirement of {{ with printf \`${q.tsel('avax_validator_uptime_requirement_ratio', 'target=%q', 'subnet=%q', 'node_id=%q')}\` $labels.target $labels.subnet $labels.node_id | query }}{{ . | first | value | humanizePercentage }}{{ else }}80% or 90%{{ end }}. The potential reward of this validation is lost: {{ with printf \`max(${q.tsel('avax_validator_potential_reward_avax', 'target=%q', 'subnet=%q', 'node_id=%q')})\` $labels.target $labels.subnet $labels.node_id | query }}{{ . | first | value | printf "%.2f" }} AVAX{{ else }}unknown (no avax_validator_potential_reward_avax){{ end }}. Delegators lose their reward too.`,
      },
      ...uptimeBudgetRules({ t, q }),
      {
        alert: 'AvalancheRewardingStakeLow',
        comment: `Share of stake whose last uptime report puts this node at or above the requirement the node measures it
against (thresholds.rewardingStakeLow), of the stake it is connected to (avax_uptime_connected_rewarding_stake_ratio:
a validator that is down counts 0 in info.uptime); avax_uptime_rewarding_stake_requirement_ratio, 0.9 from avalanchego v1.15.0
for a validation or cycle started after Helicon, else 0.8. Measured at 0.8 while the validation needs 0.9 it can
stay at 100 % while the reward is lost: AvalancheUptimeBelowRequirement (the weighted average against the
validation's own requirement) covers that; the description says so instead of promising safety.`,
        expr: `(${q.sel('avax_uptime_connected_rewarding_stake_ratio')} or ${q.sel('avax_uptime_rewarding_stake_ratio')}) < ${num(t.rewardingStakeLow)}`,
        for: '15m',
        severity: 'warning',
        summary: '{{ $labels.target }}: only {{ $value | humanizePercentage }} of stake would reward this node',
        description: `Only {{ $value | humanizePercentage }} of the stake it is connected to (threshold ${percent(t.rewardingStakeLow)}%) last reported {{ $labels.target }} at or above ${measuredAt}, the requirement the node counts this share against; the validation needs ${validationNeeds}. The reward is decided by each validator's own measurement against the validation's requirement, so this share falling shows peers losing sight of the node; a high share measured below the validation's requirement proves nothing (check avax_uptime_weighted_average_ratio against it).`,
      },
      {
        alert: 'AvalancheValidatorNotActive',
        comment: `Only where an ID must validate (avax_validator_expected_active == 1, per node ID and subnet: an ID
given with --validator.node-id on the primary network, or on the subnets its { nodeId, subnets } entry
names; never another node's ID on this node's L1s). The node's own ID is left to
AvalancheNodeNotInValidatorSet, so an API node (not a validator) watching its own ID by default never
fires. ${l1ZeroNote}`,
        expr: `${expectedInactive}
unless on(target, node_id)
${q.sel('avax_node_info')}
`,
        for: '10m',
        severity: 'critical',
        summary: '{{ $labels.target }}: {{ $labels.node_id }} is not a current validator of {{ $labels.subnet }}',
        description:
          'Watched node {{ $labels.node_id }} is not in platform.getCurrentValidators for subnet {{ $labels.subnet }} as seen by {{ $labels.target }} (active = {{ $value }}) for more than 10 minutes.',
      },
      {
        alert: 'AvalancheValidatorDisconnected',
        comment: `One vantage's view. for: 15m, five minutes more than AvalancheValidatorFewVantagesConnected's, which
examples/alertmanager.yml lets mute it: when most vantages see the validator gone, that one says it first, and
each vantage's own alert comes muted (with the same 10m, a real v1.15.0 vantage's notification left a few seconds
before the cross-vantage alert fired). A vantage alone in seeing it gone still pages, five minutes later.`,
        expr: `${q.sel('avax_validator_connected')} == 0`,
        for: '15m',
        severity: 'warning',
        summary: '{{ $labels.target }}: validator {{ $labels.node_id }} is disconnected',
        description:
          '{{ $labels.target }} has reported validator {{ $labels.node_id }} (subnet {{ $labels.subnet }}) as not connected (connected = {{ $value }}) for more than 15 minutes. Disconnected time counts against its uptime.',
      },
      ending(
        'info',
        t.validationEndingInfo,
        `Three tiers (thresholds.validationEnding*): info < ${durationWords(t.validationEndingInfo)}, warning < ${durationWords(t.validationEndingWarning)}, critical < ${durationWords(t.validationEndingCritical)}.
Below ${durationWords(t.validationEndingCritical)} all three fire; alerts/README.md has the inhibit rules that keep only the highest one.
L1 validators (ACP-77) have no endTime, so no series and no alert; nor an auto-renewed validator (ACP-236)
that renews at the end of its cycle (avax_validator_next_period_seconds > 0).`,
      ),
      ending('warning', t.validationEndingWarning),
      ending('critical', t.validationEndingCritical),
      {
        alert: 'AvalancheNodeNotInValidatorSet',
        comment: `The node's own ID (avax_node_info) is expected to validate (--validator.expect-active or
YAML expectActive: true; on the primary network and the configured subnets, or where its { nodeId,
subnets } entry says) but is not in platform.getCurrentValidators: the node was moved
to another machine with other staking keys, or re-keyed, or its validation ended.
Without expect-active the own ID is never expected (API nodes stay silent). ${l1ZeroNote}`,
        expr: `${expectedInactive}
and on(target, node_id)
${q.sel('avax_node_info')}
`,
        for: '10m',
        severity: 'critical',
        summary: '{{ $labels.target }}: its own node ID {{ $labels.node_id }} is not a validator of {{ $labels.subnet }}',
        description:
          '{{ $labels.target }} runs as {{ $labels.node_id }} (info.getNodeID) and is expected to validate, but that ID has not been in platform.getCurrentValidators for subnet {{ $labels.subnet }} (active = {{ $value }}) for more than 10 minutes. The node was moved or re-keyed (its staking certificate is not the registered one), or its validation ended.',
      },
      {
        alert: 'AvalancheValidatorBLSKeyMismatch',
        comment: `Own node ID only: the BLS key of info.getNodeID (nodePOP) differs from the signer key
registered on the P-Chain (or the registration has none). Only while that ID is an active
primary-network validator, so API nodes never fire.`,
        expr: `${q.sel('avax_validator_bls_key_matches')} == 0
  and on(target, node_id)
(${q.sel('avax_validator_active', P)} == 1)
`,
        for: '10m',
        severity: 'critical',
        summary: '{{ $labels.target }}: BLS key of {{ $labels.node_id }} does not match the P-Chain registration',
        description:
          "The BLS public key that {{ $labels.target }} uses (info.getNodeID nodePOP) differs from the signer key registered for validator {{ $labels.node_id }} on the P-Chain (bls_key_matches = {{ $value }}) for more than 10 minutes. The node's signatures (Warp messages, L1 and P-Chain features that need BLS) are rejected; the signer.key file was lost or replaced.",
      },
      capacity === 0
        ? {
            alert: 'AvalancheDelegationCapacityFull',
            comment: 'Primary network: min(5 x own stake, 3,000,000 AVAX) - own stake - delegated stake is 0\n(the exporter reports 0, never less; thresholds.delegationCapacityLowAvax: 0).',
            expr: `${q.sel('avax_validator_delegation_capacity_avax')} == 0`,
            for: '15m',
            severity: 'info',
            summary: '{{ $labels.target }}: validator {{ $labels.node_id }} accepts no more delegations',
            description:
              'Validator {{ $labels.node_id }} (subnet {{ $labels.subnet }}, watched by {{ $labels.target }}) has no delegation capacity left (capacity = {{ $value }} AVAX): its own stake plus delegations reached 5 times its own stake or 3,000,000 AVAX. New delegations to it fail until a delegation ends or the own stake grows at the next re-stake.',
          }
        : {
            alert: 'AvalancheDelegationCapacityFull',
            comment: `Primary network: min(5 x own stake, 3,000,000 AVAX) - own stake - delegated stake is below
${num(capacity)} AVAX (thresholds.delegationCapacityLowAvax).`,
            expr: `${q.sel('avax_validator_delegation_capacity_avax')} < ${num(capacity)}`,
            for: '15m',
            severity: 'info',
            summary: '{{ $labels.target }}: validator {{ $labels.node_id }} accepts few more delegations',
            description: `Validator {{ $labels.node_id }} (subnet {{ $labels.subnet }}, watched by {{ $labels.target }}) has {{ $value }} AVAX of delegation capacity left (threshold ${num(capacity)} AVAX): its own stake plus delegations approach 5 times its own stake or 3,000,000 AVAX. Larger delegations to it fail until a delegation ends or the own stake grows at the next re-stake.`,
          },
      balanceLow(
        'warning',
        t.l1RunwayWarning,
        `Runway = L1 validator balance / the P-Chain's current fee price (getValidatorFeeState).
Tiers: thresholds.l1RunwayWarning (${promDuration(t.l1RunwayWarning)}) and thresholds.l1RunwayCritical (${promDuration(t.l1RunwayCritical)}).
0 means the validator is already inactive (AvalancheL1ValidatorInactive).`,
      ),
      balanceLow('critical', t.l1RunwayCritical),
      l1ValidatorInactive({ t, q }),
      ...l1WeightAtRiskRules({ t, q }),
      {
        alert: 'AvalancheValidationEndedWithoutReward',
        comment: `validator-rewards: a watched primary-network validation the exporter saw active ended and
platform.getRewardUTXOs(txID) lists no reward UTXO, or a cycle of a watched auto-renewed validator (ACP-236) ended
with an abort (its RewardAutoRenewedValidatorTx paid less than the cycle's potential reward plus what it returned:
the validator was removed), although it showed a potential reward. A renewal or a graceful exit is a reward.
Final: it fires for thresholds.rewardMissedWindow (${promDuration(t.rewardMissedWindow)}) after the end. Kept in the
exporter's memory only: an exporter restart clears the series (and resolves the alert).`,
        expr: `${q.sel('avax_validator_last_reward_avax')} == 0
  and on(target, node_id)
${q.sel('avax_validator_last_potential_reward_avax')} > 0
  and on(target, node_id)
time() - ${q.sel('avax_validator_last_reward_timestamp_seconds')} < ${secondsExpr(t.rewardMissedWindow)}
`,
        for: '5m',
        severity: 'critical',
        summary: '{{ $labels.target }}: validation of {{ $labels.node_id }} ended without reward (paid {{ $value }} AVAX)',
        description: `The primary-network validation of {{ $labels.node_id }} (watched by {{ $labels.target }}), or the cycle of its auto-renewed validation, ended{{ with printf \`max(${q.tsel('avax_validator_last_reward_timestamp_seconds', 'target=%q', 'node_id=%q')})\` $labels.target $labels.node_id | query }} at {{ . | first | value | humanizeTimestamp }}{{ end }} and the P-Chain paid no reward for it (platform.getRewardUTXOs of the validation, or of the cycle's reward tx). The reward it showed while active was {{ with printf \`max(${q.tsel('avax_validator_last_potential_reward_avax', 'target=%q', 'node_id=%q')})\` $labels.target $labels.node_id | query }}{{ . | first | value | printf "%.4f" }}{{ else }}?{{ end }} AVAX: it is lost. Usually the uptime, as the other validators measured it, stayed below the requirement (90% for a validation or cycle started after Helicon). The stake itself is returned, with any rewards an auto-renewed validator had re-staked; an auto-renewed validator has left the validator set and must be registered again.`,
      },
      {
        alert: 'AvalancheValidatorStakeBelowMinimum',
        comment: 'The own stake of a watched primary-network validator is below platform.getMinStake minValidatorStake\n(network-economics): the same amount cannot be staked again when the validation ends.',
        expr: `${q.sel('avax_validator_stake_avax', P)}
  < on(target) group_left()
${q.sel('avax_network_min_validator_stake_avax')}
`,
        for: '1h',
        severity: 'info',
        summary: '{{ $labels.target }}: stake of {{ $labels.node_id }} is below the current minimum validator stake',
        description: `Validator {{ $labels.node_id }} (watched by {{ $labels.target }}) stakes {{ $value }} AVAX, below the current minimum validator stake of {{ with printf \`max(${q.tsel('avax_network_min_validator_stake_avax', 'target=%q')})\` $labels.target | query }}{{ . | first | value }}{{ else }}?{{ end }} AVAX (platform.getMinStake). The current validation is not affected, but the node cannot re-stake the same amount when it ends: plan to add stake.`,
      },
      // Issue 14: the chains of the subnets this node validates (subnet-chains), and its advertised IP.
      ...chainRules({ t, q }),
    ];
  },
};
