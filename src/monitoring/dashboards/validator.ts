// Avalanche / Validator (uid avax-validator): uptime against the reward requirement, rewarding stake,
// connectivity, stake, delegators, reward, time left, delegation room, BLS key and L1 validators.
import * as common from '@grafana/grafana-foundation-sdk/common';
import type * as dashboard from '@grafana/grafana-foundation-sdk/dashboard';
import { durationWords, percent } from '../duration.js';
import { PRIMARY_NETWORK } from '../rules/types.js';
import { avalancheDashboard, barGaugePanel, instant, ofMetric, prop, range, redGreen, row, statPanel, steps, valueText, type DashboardContext } from './kit.js';
import { freshness, L1_DISCOVERY } from '../l1-docs.js';
import { withChainPanels } from './l1-chains-panels.js';
import { columnsTable, metricSeries, place, series, statOf, timeline, type Column, type Size } from './panels.js';

export function validatorDashboard(ctx: DashboardContext): dashboard.DashboardBuilder {
  const { q, t } = ctx;
  const P = `subnet="${PRIMARY_NETWORK}"`;
  const endSteps = () => steps(['red', null], ['orange', t.validationEndingCritical], ['yellow', t.validationEndingWarning], ['green', t.validationEndingInfo]);
  const runwaySteps = () => steps(['red', null], ['orange', t.l1RunwayCritical], ['green', t.l1RunwayWarning]);
  // The requirement line of the uptime charts: dashed red.
  const requirementLine = [prop.dashed(), prop.fixedColor('red')];
  const ownRequirement = `${q.sel('avax_validator_uptime_requirement_ratio', P)} and on(target, node_id) ${q.sel('avax_node_info')}`;
  const maxBy = (labels: string, expr: string) => `max by (${labels}) (${expr})`;
  const sat = (metric: string, ...m: string[]) => maxBy('target, subnet, node_id', q.sel(metric, ...m));
  /** A table of the watched nodes' own validations: one row per target and node ID, sorted by target unless `sortBy` says. */
  const ownValidationTable = (size: Size, title: string, o: { sortBy?: string; description: string; columns: readonly Column[]; display?: readonly string[] }) =>
    columnsTable(size, title, { sortBy: 'target', ...o, labels: ['target', 'node_id'] });
  /** A blue stat of one exporter metric (its HELP, its unit). */
  const blueStat = (size: Size, title: string, metric: string) =>
    place(ofMetric(statPanel(title).colorMode(common.BigValueColorMode.Value).thresholds(steps(['blue', null])), metric), size, [instant(q.sel(metric), '{{target}} {{node_id}}')]);

  // Issue 14 panels (l1-chains-panels.ts) after the others.
  return withChainPanels(
    avalancheDashboard(
      {
        uid: 'avax-validator',
        title: 'Avalanche / Validator',
        description: 'Validator view: uptime against the reward requirement, rewarding stake, connectivity, stake, delegators, reward and time left.',
      },
      ctx,
    )
      // ------------------------------------------------------------ Uptime
      .withRow(row('Uptime'))
      .withPanel(
        series(
          [9, 12],
          'Uptime vs requirement',
          "Weighted average uptime as seen by the network (info.uptime) against the validation's reward requirement (0.8, or 0.9 after Helicon).",
          range(q.sel('avax_uptime_weighted_average_ratio'), '{{target}} weighted average (network view)'),
          range(q.sel('avax_validator_uptime_requirement_ratio', P), '{{target}} requirement {{node_id}}'),
          range(q.sel('avax_validator_uptime_ratio', P), '{{target}} local view {{node_id}}'),
        )
          .unit('percentunit')
          .max(1)
          .thresholds(steps(['green', null]))
          .overrideByQuery('B', requirementLine),
      )
      .withPanel(
        series(
          [9, 12],
          'Rewarding stake',
          `Share of stake whose last report puts this node at or above the requirement the node measures it against (dashed: avax_uptime_rewarding_stake_requirement_ratio, 0.9 from v1.15.0 for a validation or cycle started after Helicon, else 0.8). AvalancheRewardingStakeLow below ${percent(t.rewardingStakeLow)}%. Measured at 0.8 while the validation needs 0.9, a full share here does not mean the reward is safe: see Uptime vs requirement.`,
          range(q.sel('avax_uptime_rewarding_stake_ratio'), '{{target}}'),
          range(q.sel('avax_uptime_rewarding_stake_requirement_ratio'), '{{target}} measured at'),
        )
          .overrideByQuery('B', requirementLine)
          .thresholdsStyle(new common.GraphThresholdsStyleConfigBuilder().mode(common.GraphThresholdsStyleMode.LineAndArea))
          .unit('percentunit')
          .max(1)
          .thresholds(steps(['red', null], ['orange', 0.8], ['green', t.rewardingStakeLow])),
      )
      .withPanel(metricSeries([8, 12], 'Uptime as peers observe it', q, 'avax_peers_observed_uptime_ratio', '{{target}} q{{quantile}}').max(1))
      .withPanel(
        timeline(
          [8, 12],
          'Connected / active',
          'connected: as the queried node sees the validator. active: in platform.getCurrentValidators; an L1 validator listed with balance 0 is not active (disabled or out of balance: AvalancheL1ValidatorInactive says which).',
          valueText([0, 'NO', 'red'], [1, 'yes', 'green']),
          range(q.sel('avax_validator_connected'), '{{target}} {{node_id}} connected'),
          range(q.sel('avax_validator_active'), '{{target}} {{node_id}} active'),
        ),
      )
      // ------------------------------------------------------------ Stake and reward
      .withRow(row('Stake and reward'))
      .withPanel(
        series(
          [8, 8],
          'Stake',
          'AVAX staked by the validator and delegated to it.',
          range(q.sel('avax_validator_stake_avax'), '{{target}} {{node_id}} own'),
          range(q.sel('avax_validator_delegator_stake_avax'), '{{target}} {{node_id}} delegated'),
        )
          .stacking(new common.StackingConfigBuilder().mode(common.StackingMode.Normal).group('A'))
          .fillOpacity(30)
          // short (2.5 Mil) reads better than the suffix unit for stake sizes; the description says AVAX.
          .unit('short')
          .min(0),
      )
      .withPanel(metricSeries([8, 8], 'Delegators', q, 'avax_validator_delegators', '{{target}} {{node_id}}').unit('none').min(0))
      .withPanel(
        blueStat([8, 8], 'Potential reward (AVAX)', 'avax_validator_potential_reward_avax')
          .decimals(2)
          .unit('short'), // the title says AVAX
      )
      // ------------------------------------------------------------ Validation period
      .withRow(row('Validation period'))
      .withPanel(
        statOf(
          [6, 12],
          'Time left in the validation',
          `${q.sel('avax_validator_end_timestamp_seconds')} - time()`,
          '{{target}} {{node_id}}',
          `endTime minus now (AvalancheValidationEndingSoon: info at ${durationWords(t.validationEndingInfo)}, warning at ${durationWords(t.validationEndingWarning)}, critical at ${durationWords(t.validationEndingCritical)}).`,
        )
          .unit('dtdurations')
          .thresholds(endSteps()),
      )
      .withPanel(blueStat([6, 6], 'Delegation fee', 'avax_validator_delegation_fee_ratio'))
      .withPanel(
        statOf(
          [6, 6],
          'Validation elapsed',
          `(time() - ${q.sel('avax_validator_start_timestamp_seconds')}) / (${q.sel('avax_validator_end_timestamp_seconds')} - ${q.sel('avax_validator_start_timestamp_seconds')})`,
          '{{target}} {{node_id}}',
        )
          .colorMode(common.BigValueColorMode.Value)
          .thresholds(steps(['blue', null]))
          .unit('percentunit')
          .min(0)
          .max(1),
      )
      // ------------------------------------------------------------ Network
      .withRow(row('Network'))
      .withPanel(
        series([8, 12], 'Connected stake', `Share of the subnet's stake this node is connected to (chain health needs 80%). Below ${percent(t.connectedStakeLow)} % for 10 minutes: AvalancheConnectedStakeLow.`, range(q.sel('avax_subnet_connected_stake_ratio'), '{{target}} {{subnet}}'))
          .unit('percentunit')
          .max(1)
          .thresholds(steps(['red', null], ['green', t.connectedStakeLow])),
      )
      .withPanel(metricSeries([8, 12], 'Validators', q, 'avax_subnet_validators', '{{target}} {{subnet}}').unit('none').min(0))
      // ------------------------------------------------------------ Reward outlook
      .withRow(row('Reward outlook'))
      .withPanel(
        series(
          [9, 12],
          'Reward outlook: best reachable uptime vs requirement',
          "The node's own primary-network validation. Best reachable: the uptime at the end of the validation if the node stays up from now on, (u·elapsed + remaining) / duration with u the current weighted average. Below the requirement the reward is lost (AvalancheValidatorRewardsLost); current below the requirement but best reachable above it: the reward can still be saved.",
          range(q.sel('avax_validator_uptime_max_achievable_ratio'), '{{target}} best reachable {{node_id}}'),
          range(ownRequirement, '{{target}} requirement {{node_id}}'),
          range(q.sel('avax_uptime_weighted_average_ratio'), '{{target}} current weighted average'),
        )
          .unit('percentunit')
          .thresholds(steps(['green', null]))
          .max(1)
          .overrideByQuery('B', requirementLine),
      )
      .withPanel(
        ownValidationTable([9, 12], 'Reward at stake', {
          description: `Per node, its own primary-network validation: the potential reward (lost if the validation ends below the requirement), the best reachable uptime and its margin over the requirement (red: the reward is lost; orange: less than ${percent(t.uptimeAtRiskMargin)} points).`,
          columns: [
            { name: 'potential reward (AVAX)', query: maxBy('target, node_id', `${q.sel('avax_validator_potential_reward_avax', P)} and on(target, node_id) ${q.sel('avax_node_info')}`), props: [prop.decimals(2)] },
            { name: 'best reachable uptime', query: maxBy('target, node_id', q.sel('avax_validator_uptime_max_achievable_ratio')), props: [prop.unit('percentunit')] },
            { name: 'requirement', query: maxBy('target, node_id', ownRequirement), props: [prop.unit('percentunit')] },
            {
              name: 'margin',
              query: `${maxBy('target, node_id', q.sel('avax_validator_uptime_max_achievable_ratio'))} - on(target, node_id) ${maxBy('target, node_id', q.sel('avax_validator_uptime_requirement_ratio', P))}`,
              props: [prop.cellBackground(), prop.thresholds(steps(['red', null], ['orange', 0], ['green', t.uptimeAtRiskMargin])), prop.unit('percentunit')],
            },
          ],
        }),
      )
      // Issue 27: the requirement as a downtime budget, per validation or ACP-236 cycle.
      .withPanel(
        metricSeries([8, 12], 'Downtime budget left', q, 'avax_validator_downtime_budget_seconds', '{{target}} {{node_id}}')
          .unit('s')
          .min(0),
      )
      .withPanel(
        ownValidationTable([8, 12], 'Validation or cycle', {
          description:
            "Per node, its own primary-network validation; for an auto-renewed validator (ACP-236, avalanchego v1.15.0 after Helicon) its current cycle: whether it renews, the time to the reward boundary (avax_validator_cycle_end_timestamp_seconds), the next cycle's length (0: it leaves there), the delegation fees accrued in it (paid or re-staked at its end), whether the requirement can still be met (no: the reward is lost, and an auto-renewed validator is removed at the boundary: AvalancheValidatorForcedExitRisk) and the downtime it can still afford.",
          columns: [
            { name: 'auto-renewed', query: sat('avax_validator_auto_renewed', P), props: [prop.mappings(valueText([0, 'no', 'blue'], [1, 'yes', 'blue']))] },
            { name: 'to the boundary', query: `${sat('avax_validator_cycle_end_timestamp_seconds', P)} - time()`, props: [prop.unit('dtdurations')] },
            { name: 'next period', query: sat('avax_validator_next_period_seconds', P), props: [prop.unit('dtdurations')] },
            { name: 'fees accrued (AVAX)', query: sat('avax_validator_accrued_delegatee_reward_avax', P), props: [prop.decimals(4)] },
            {
              name: 'requirement reachable',
              query: sat('avax_validator_uptime_requirement_reachable'),
              props: [prop.cellBackground(), prop.thresholds(redGreen()), prop.mappings(valueText([0, 'no', 'red'], [1, 'yes', 'green']))],
            },
            { name: 'downtime budget left', query: sat('avax_validator_downtime_budget_seconds'), props: [prop.unit('dtdurations')] },
          ],
        }),
      )
      .withPanel(
        ownValidationTable([6, 24], 'Auto-renew config', {
          description:
            "Per watched auto-renewed validator (ACP-236): the share of each cycle's reward (validation reward and delegation fees) it re-stakes into its weight (autoCompoundRewardShares; the rest is paid to the reward owners), the next cycle's length (0: it leaves at the boundary), and the validatorAuthority that may change both (SetAutoRenewedValidatorConfigTx): the signatures it needs of how many keys. Empty for validations with a fixed end.",
          columns: [
            { name: 're-staked share', query: sat('avax_validator_auto_compound_reward_ratio', P), props: [prop.unit('percentunit')] },
            { name: 'next period', query: `${sat('avax_validator_next_period_seconds', P)} and on(target, node_id) ${sat('avax_validator_auto_renewed', P)} == 1`, props: [prop.unit('dtdurations')] },
            { name: 'authority signatures', query: sat('avax_validator_authority_threshold', P) },
            { name: 'authority keys', query: sat('avax_validator_authority_addresses', P) },
          ],
        }),
      )
      // ------------------------------------------------------------ Delegation and keys
      .withRow(row('Delegation and keys'))
      .withPanel(
        statOf(
          [6, 8],
          'Delegation capacity left (AVAX)',
          q.sel('avax_validator_delegation_capacity_avax'),
          '{{target}} {{node_id}}',
          `min(5 × own stake, 3,000,000 AVAX) − own stake − delegated stake. ${t.delegationCapacityLowAvax === 0 ? '0: no more delegations' : `Below ${t.delegationCapacityLowAvax}: few more delegations`} (AvalancheDelegationCapacityFull, info).`,
        )
          .colorMode(common.BigValueColorMode.Value)
          .decimals(0)
          .unit('short') // the title says AVAX
          .thresholds(steps(['orange', null], ['green', t.delegationCapacityLowAvax === 0 ? 1 : t.delegationCapacityLowAvax])),
      )
      .withPanel(
        place(
          barGaugePanel('Delegation room used'),
          [6, 8],
          [instant(`${q.sel('avax_validator_delegator_stake_avax')} / (${q.sel('avax_validator_delegator_stake_avax')} + ${q.sel('avax_validator_delegation_capacity_avax')})`, '{{target}} {{node_id}}')],
          'Delegated stake / (delegated stake + capacity left): the share of the delegations this validator can take that is already used.',
        )
          .unit('percentunit')
          .min(0)
          .max(1)
          .thresholds(steps(['green', null], ['orange', 0.9], ['red', 1])),
      )
      .withPanel(
        statOf(
          [6, 8],
          'BLS key matches the P-Chain registration',
          q.sel('avax_validator_bls_key_matches'),
          '{{target}} {{node_id}}',
          "The node's BLS key (info.getNodeID nodePOP) against the signer key registered for its own ID on the P-Chain. MISMATCH: its BLS signatures do not verify (AvalancheValidatorBLSKeyMismatch). No value on a node that is not a validator.",
        )
          .mappings(valueText([0, 'MISMATCH', 'red'], [1, 'match', 'green']))
          .thresholds(redGreen()),
      )
      // ------------------------------------------------------------ Validation end
      .withRow(row('Validation end'))
      .withPanel(
        columnsTable([8, 24], 'Validation end (every watched node ID and subnet)', {
          sortBy: 'ends in',
          description: `Every watched node ID on every subnet with an endTime (ACP-77 L1 validators have none). Colours follow AvalancheValidationEndingSoon: red below ${durationWords(t.validationEndingCritical)} (critical), orange below ${durationWords(t.validationEndingWarning)} (warning), yellow below ${durationWords(t.validationEndingInfo)} (info).`,
          labels: ['target', 'subnet', 'node_id'],
          columns: [
            { name: 'ends in', query: `${sat('avax_validator_end_timestamp_seconds')} - time()`, props: [prop.cellBackground(), prop.thresholds(endSteps()), prop.unit('dtdurations')] },
            { name: 'end time', query: `${sat('avax_validator_end_timestamp_seconds')} * 1000`, props: [prop.unit('dateTimeAsIso')] },
          ],
        }),
      )
      // ------------------------------------------------------------ L1 validators
      .withRow(row('L1 validators'))
      .withPanel(
        series(
          [8, 8],
          'L1 fee runway',
          `Watched ACP-77 L1 validators: balance / fee price = how long the balance pays the continuous fee. 0 = inactive. AvalancheL1ValidatorBalanceLow at ${durationWords(t.l1RunwayWarning)} (warning) and ${durationWords(t.l1RunwayCritical)} (critical). The balance is the P-Chain's as of its last block's time, not now. ${L1_DISCOVERY}`,
          range(q.sel('avax_l1_validator_balance_runway_seconds'), '{{target}} {{node_id}}'),
        )
          .unit('s')
          .thresholds(runwaySteps())
          .thresholdsStyle(new common.GraphThresholdsStyleConfigBuilder().mode(common.GraphThresholdsStyleMode.Line))
          .min(0),
      )
      .withPanel(
        columnsTable([8, 8], 'L1 validators: balance and runway', {
          sortBy: 'runway',
          description: `Balance 0 (red) = an inactive L1 validator: still listed, but out of the validator set, because it was disabled (DisableL1ValidatorTx) or ran out of balance (AvalancheL1ValidatorInactive says which). Top up with an IncreaseL1ValidatorBalanceTx. The balance is the P-Chain's as of its last block's time, refreshed ${freshness('platform-validators')}.`,
          labels: ['target', 'subnet', 'node_id'],
          columns: [
            { name: 'balance (AVAX)', query: sat('avax_l1_validator_balance_avax'), props: [prop.cellBackground(), prop.thresholds(steps(['red', null], ['green', 1e-9]))] },
            { name: 'runway', query: sat('avax_l1_validator_balance_runway_seconds'), props: [prop.cellBackground(), prop.thresholds(runwaySteps()), prop.unit('dtdurations')] },
            {
              name: 'state',
              query: maxBy('target, subnet, node_id', `${q.sel('avax_validator_active')} and on(target, subnet, node_id) ${q.sel('avax_l1_validator_balance_avax')}`),
              props: [prop.cellBackground(), prop.mappings(valueText([0, 'INACTIVE: balance 0 (disabled or out of balance)', 'red'], [1, 'active', 'green'])), prop.thresholds(redGreen())],
            },
          ],
        }),
      )
      .withPanel(
        series(
          [8, 8],
          'L1 weight at risk',
          `Per watched L1: the share of its validator weight whose balance lasts under 7 days at the current fee price (inactive validators included), from the L1's whole validator list. A third out of balance halts the L1, which stays halted after a top-up. AvalancheL1WeightAtRisk at ${percent(t.l1WeightAtRiskWarning)} % (warning) and ${percent(t.l1WeightAtRiskCritical)} % (critical). ${L1_DISCOVERY}`,
          range(`max by (subnet) (${q.sel('avax_l1_weight_at_risk_ratio')})`, '{{subnet}}'),
        )
          .unit('percentunit')
          .min(0)
          .max(1)
          .thresholds(steps(['green', null], ['orange', t.l1WeightAtRiskWarning], ['red', t.l1WeightAtRiskCritical]))
          .thresholdsStyle(new common.GraphThresholdsStyleConfigBuilder().mode(common.GraphThresholdsStyleMode.Line)),
      )
      .withPanel(
        metricSeries([8, 8], 'L1 validator fee price', q, 'avax_l1_validator_fee_price_navax_per_second', '{{target}}')
          .description(
            'platform.getValidatorFeeState price: nAVAX per second per active L1 validator (mainnet minimum 512). It rises while more than the target number of L1 validators are active.',
          )
          .thresholds(steps(['green', null]))
          .min(0),
      )
      .withRow(row('Reward outcomes'))
      .withPanel(
        ownValidationTable([8, 12], 'Last validation reward', {
          sortBy: 'paid (AVAX)',
          description:
            "The last watched primary-network validation of each node that ended while the exporter ran, or the last cycle of an auto-renewed one: its reward (platform.getRewardUTXOs of the validation or of the cycle's reward tx, plus what the cycle re-staked) against the potential reward it showed. Paid 0 with a reward expected (red) = AvalancheValidationEndedWithoutReward. Empty until a watched validation or cycle ends; the exporter keeps this in memory only (a restart clears it).",
          columns: [
            { name: 'paid (AVAX)', query: maxBy('target, node_id', q.sel('avax_validator_last_reward_avax')), props: [prop.cellBackground(), prop.thresholds(steps(['red', null], ['green', 1e-9]))] },
            { name: 're-staked (AVAX)', query: maxBy('target, node_id', q.sel('avax_validator_last_reward_restaked_avax')) },
            { name: 'expected (AVAX)', query: maxBy('target, node_id', q.sel('avax_validator_last_potential_reward_avax')) },
            { name: 'ended', query: `${maxBy('target, node_id', q.sel('avax_validator_last_reward_timestamp_seconds'))} * 1000`, props: [prop.unit('dateTimeAsIso')] },
          ],
          display: ['ended', 'paid (AVAX)', 're-staked (AVAX)', 'expected (AVAX)'],
        }),
      )
      .withPanel(metricSeries([8, 12], 'Reward owner balance', q, 'avax_reward_owner_balance_avax', '{{target}} {{node_id}}').thresholds(steps(['green', null])).min(0)),
    ctx,
  );
}
