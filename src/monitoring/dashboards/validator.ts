// Avalanche / Validator (uid avax-validator): uptime against the reward requirement, rewarding stake,
// connectivity, stake, delegators, reward, time left, delegation room, BLS key and L1 validators.
import * as common from '@grafana/grafana-foundation-sdk/common';
import type * as dashboard from '@grafana/grafana-foundation-sdk/dashboard';
import { durationWords, percent } from '../duration.js';
import { PRIMARY_NETWORK } from '../rules/types.js';
import {
  avalancheDashboard,
  barGaugePanel,
  instant,
  mergeColumns,
  ofMetric,
  prop,
  range,
  redGreen,
  refs,
  row,
  statPanel,
  stateTimelinePanel,
  steps,
  tablePanel,
  tableQuery,
  timeseriesPanel,
  valueText,
  type DashboardContext,
} from './kit.js';
import { withChainPanels } from './l1-chains-panels.js';

export function validatorDashboard(ctx: DashboardContext): dashboard.DashboardBuilder {
  const { q, t } = ctx;
  const P = `subnet="${PRIMARY_NETWORK}"`;
  const endSteps = () => steps(['red', null], ['orange', t.validationEndingCritical], ['yellow', t.validationEndingWarning], ['green', t.validationEndingInfo]);
  const runwaySteps = () => steps(['red', null], ['orange', t.l1RunwayCritical], ['green', t.l1RunwayWarning]);
  // The requirement line of the uptime charts: dashed red.
  const requirementLine = [prop.dashed(), prop.fixedColor('red')];
  const ownRequirement = `${q.sel('avax_validator_uptime_requirement_ratio', P)} and on(target, node_id) ${q.sel('avax_node_info')}`;
  const blueStat = (title: string) => statPanel(title).colorMode(common.BigValueColorMode.Value).thresholds(steps(['blue', null]));

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
        timeseriesPanel('Uptime vs requirement')
          .height(9)
          .span(12)
          .description("Weighted average uptime as seen by the network (info.uptime) against the validation's reward requirement (0.8, or 0.9 after Helicon).")
          .targets(
            refs(
              range(q.sel('avax_uptime_weighted_average_ratio'), '{{target}} weighted average (network view)'),
              range(q.sel('avax_validator_uptime_requirement_ratio', P), '{{target}} requirement {{node_id}}'),
              range(q.sel('avax_validator_uptime_ratio', P), '{{target}} local view {{node_id}}'),
            ),
          )
          .unit('percentunit')
          .max(1)
          .thresholds(steps(['green', null]))
          .overrideByQuery('B', requirementLine),
      )
      .withPanel(
        timeseriesPanel('Rewarding stake')
          .height(9)
          .span(12)
          .description(`Share of stake that currently considers this node above its uptime requirement (AvalancheRewardingStakeLow below ${percent(t.rewardingStakeLow)}%).`)
          .withTarget(range(q.sel('avax_uptime_rewarding_stake_ratio'), '{{target}}').refId('A'))
          .thresholdsStyle(new common.GraphThresholdsStyleConfigBuilder().mode(common.GraphThresholdsStyleMode.LineAndArea))
          .unit('percentunit')
          .max(1)
          .thresholds(steps(['red', null], ['orange', 0.8], ['green', t.rewardingStakeLow])),
      )
      .withPanel(
        ofMetric(timeseriesPanel('Uptime as peers observe it'), 'avax_peers_observed_uptime_ratio')
          .height(8)
          .span(12)
          .withTarget(range(q.sel('avax_peers_observed_uptime_ratio'), '{{target}} q{{quantile}}').refId('A'))
          .max(1)
          .thresholds(steps(['green', null])),
      )
      .withPanel(
        stateTimelinePanel('Connected / active')
          .height(8)
          .span(12)
          .targets(refs(range(q.sel('avax_validator_connected'), '{{target}} {{node_id}} connected'), range(q.sel('avax_validator_active'), '{{target}} {{node_id}} active')))
          .mappings(valueText([0, 'NO', 'red'], [1, 'yes', 'green']))
          .thresholds(redGreen()),
      )
      // ------------------------------------------------------------ Stake and reward
      .withRow(row('Stake and reward'))
      .withPanel(
        timeseriesPanel('Stake')
          .height(8)
          .span(8)
          .description('AVAX staked by the validator and delegated to it.')
          .targets(refs(range(q.sel('avax_validator_stake_avax'), '{{target}} {{node_id}} own'), range(q.sel('avax_validator_delegator_stake_avax'), '{{target}} {{node_id}} delegated')))
          .stacking(new common.StackingConfigBuilder().mode(common.StackingMode.Normal).group('A'))
          .fillOpacity(30)
          // short (2.5 Mil) reads better than the suffix unit for stake sizes; the description says AVAX.
          .unit('short')
          .min(0)
          .thresholds(steps(['green', null])),
      )
      .withPanel(
        ofMetric(timeseriesPanel('Delegators'), 'avax_validator_delegators')
          .height(8)
          .span(8)
          .withTarget(range(q.sel('avax_validator_delegators'), '{{target}} {{node_id}}').refId('A'))
          .unit('none')
          .min(0)
          .thresholds(steps(['green', null])),
      )
      .withPanel(
        ofMetric(blueStat('Potential reward (AVAX)'), 'avax_validator_potential_reward_avax')
          .height(8)
          .span(8)
          .withTarget(instant(q.sel('avax_validator_potential_reward_avax'), '{{target}} {{node_id}}').refId('A'))
          .decimals(2)
          .unit('short'), // the title says AVAX
      )
      // ------------------------------------------------------------ Validation period
      .withRow(row('Validation period'))
      .withPanel(
        statPanel('Time left in the validation')
          .height(6)
          .span(12)
          .description(
            `endTime minus now (AvalancheValidationEndingSoon: info at ${durationWords(t.validationEndingInfo)}, warning at ${durationWords(t.validationEndingWarning)}, critical at ${durationWords(t.validationEndingCritical)}).`,
          )
          .withTarget(instant(`${q.sel('avax_validator_end_timestamp_seconds')} - time()`, '{{target}} {{node_id}}').refId('A'))
          .unit('dtdurations')
          .thresholds(endSteps()),
      )
      .withPanel(
        ofMetric(blueStat('Delegation fee'), 'avax_validator_delegation_fee_ratio')
          .height(6)
          .span(6)
          .withTarget(instant(q.sel('avax_validator_delegation_fee_ratio'), '{{target}} {{node_id}}').refId('A')),
      )
      .withPanel(
        blueStat('Validation elapsed')
          .height(6)
          .span(6)
          .withTarget(
            instant(
              `(time() - ${q.sel('avax_validator_start_timestamp_seconds')}) / (${q.sel('avax_validator_end_timestamp_seconds')} - ${q.sel('avax_validator_start_timestamp_seconds')})`,
              '{{target}} {{node_id}}',
            ).refId('A'),
          )
          .unit('percentunit')
          .min(0)
          .max(1),
      )
      // ------------------------------------------------------------ Network
      .withRow(row('Network'))
      .withPanel(
        timeseriesPanel('Connected stake')
          .height(8)
          .span(12)
          .description("Share of the subnet's stake this node is connected to (chain health needs 80%).")
          .withTarget(range(q.sel('avax_subnet_connected_stake_ratio'), '{{target}} {{subnet}}').refId('A'))
          .unit('percentunit')
          .max(1)
          .thresholds(steps(['green', null])),
      )
      .withPanel(
        ofMetric(timeseriesPanel('Validators'), 'avax_subnet_validators')
          .height(8)
          .span(12)
          .withTarget(range(q.sel('avax_subnet_validators'), '{{target}} {{subnet}}').refId('A'))
          .unit('none')
          .min(0)
          .thresholds(steps(['green', null])),
      )
      // ------------------------------------------------------------ Reward outlook
      .withRow(row('Reward outlook'))
      .withPanel(
        timeseriesPanel('Reward outlook: best reachable uptime vs requirement')
          .height(9)
          .span(12)
          .description(
            "The node's own primary-network validation. Best reachable: the uptime at the end of the validation if the node stays up from now on, (u·elapsed + remaining) / duration with u the current weighted average. Below the requirement the reward is lost (AvalancheValidatorRewardsLost); current below the requirement but best reachable above it: the reward can still be saved.",
          )
          .targets(
            refs(
              range(q.sel('avax_validator_uptime_max_achievable_ratio'), '{{target}} best reachable {{node_id}}'),
              range(ownRequirement, '{{target}} requirement {{node_id}}'),
              range(q.sel('avax_uptime_weighted_average_ratio'), '{{target}} current weighted average'),
            ),
          )
          .unit('percentunit')
          .thresholds(steps(['green', null]))
          .max(1)
          .overrideByQuery('B', requirementLine),
      )
      .withPanel(
        tablePanel('Reward at stake', 'target')
          .height(9)
          .span(12)
          .description(
            `Per node, its own primary-network validation: the potential reward (lost if the validation ends below the requirement), the best reachable uptime and its margin over the requirement (red: the reward is lost; orange: less than ${percent(t.uptimeAtRiskMargin)} points).`,
          )
          .targets(
            refs(
              tableQuery(`max by (target, node_id) (${q.sel('avax_validator_potential_reward_avax', P)} and on(target, node_id) ${q.sel('avax_node_info')})`),
              tableQuery(`max by (target, node_id) (${q.sel('avax_validator_uptime_max_achievable_ratio')})`),
              tableQuery(`max by (target, node_id) (${ownRequirement})`),
              tableQuery(
                `max by (target, node_id) (${q.sel('avax_validator_uptime_max_achievable_ratio')}) - on(target, node_id) max by (target, node_id) (${q.sel('avax_validator_uptime_requirement_ratio', P)})`,
              ),
            ),
          )
          .thresholds(steps(['green', null]))
          .overrideByName('potential reward (AVAX)', [prop.decimals(2)])
          .overrideByName('best reachable uptime', [prop.unit('percentunit')])
          .overrideByName('requirement', [prop.unit('percentunit')])
          .overrideByName('margin', [prop.cellBackground(), prop.thresholds(steps(['red', null], ['orange', 0], ['green', t.uptimeAtRiskMargin])), prop.unit('percentunit')])
          .transformations(
            mergeColumns({
              hide: ['Time'],
              order: ['target', 'node_id', 'Value #A', 'Value #B', 'Value #C', 'Value #D'],
              rename: { 'Value #A': 'potential reward (AVAX)', 'Value #B': 'best reachable uptime', 'Value #C': 'requirement', 'Value #D': 'margin' },
            }),
          ),
      )
      // ------------------------------------------------------------ Delegation and keys
      .withRow(row('Delegation and keys'))
      .withPanel(
        statPanel('Delegation capacity left (AVAX)')
          .height(6)
          .span(8)
          .description(
            `min(5 × own stake, 3,000,000 AVAX) − own stake − delegated stake. ${t.delegationCapacityLowAvax === 0 ? '0: no more delegations' : `Below ${t.delegationCapacityLowAvax}: few more delegations`} (AvalancheDelegationCapacityFull, info).`,
          )
          .withTarget(instant(q.sel('avax_validator_delegation_capacity_avax'), '{{target}} {{node_id}}').refId('A'))
          .colorMode(common.BigValueColorMode.Value)
          .decimals(0)
          .unit('short') // the title says AVAX
          .thresholds(steps(['orange', null], ['green', t.delegationCapacityLowAvax === 0 ? 1 : t.delegationCapacityLowAvax])),
      )
      .withPanel(
        barGaugePanel('Delegation room used')
          .height(6)
          .span(8)
          .description('Delegated stake / (delegated stake + capacity left): the share of the delegations this validator can take that is already used.')
          .withTarget(
            instant(
              `${q.sel('avax_validator_delegator_stake_avax')} / (${q.sel('avax_validator_delegator_stake_avax')} + ${q.sel('avax_validator_delegation_capacity_avax')})`,
              '{{target}} {{node_id}}',
            ).refId('A'),
          )
          .unit('percentunit')
          .min(0)
          .max(1)
          .thresholds(steps(['green', null], ['orange', 0.9], ['red', 1])),
      )
      .withPanel(
        statPanel('BLS key matches the P-Chain registration')
          .height(6)
          .span(8)
          .description(
            "The node's BLS key (info.getNodeID nodePOP) against the signer key registered for its own ID on the P-Chain. MISMATCH: its BLS signatures do not verify (AvalancheValidatorBLSKeyMismatch). No value on a node that is not a validator.",
          )
          .withTarget(instant(q.sel('avax_validator_bls_key_matches'), '{{target}} {{node_id}}').refId('A'))
          .mappings(valueText([0, 'MISMATCH', 'red'], [1, 'match', 'green']))
          .thresholds(redGreen()),
      )
      // ------------------------------------------------------------ Validation end
      .withRow(row('Validation end'))
      .withPanel(
        tablePanel('Validation end (every watched node ID and subnet)', 'ends in')
          .height(8)
          .span(24)
          .description(
            `Every watched node ID on every subnet with an endTime (ACP-77 L1 validators have none). Colours follow AvalancheValidationEndingSoon: red below ${durationWords(t.validationEndingCritical)} (critical), orange below ${durationWords(t.validationEndingWarning)} (warning), yellow below ${durationWords(t.validationEndingInfo)} (info).`,
          )
          .targets(
            refs(
              tableQuery(`max by (target, subnet, node_id) (${q.sel('avax_validator_end_timestamp_seconds')}) - time()`),
              tableQuery(`max by (target, subnet, node_id) (${q.sel('avax_validator_end_timestamp_seconds')}) * 1000`),
            ),
          )
          .thresholds(steps(['green', null]))
          .overrideByName('ends in', [prop.cellBackground(), prop.thresholds(endSteps()), prop.unit('dtdurations')])
          .overrideByName('end time', [prop.unit('dateTimeAsIso')])
          .transformations(
            mergeColumns({
              hide: ['Time'],
              order: ['target', 'subnet', 'node_id', 'Value #A', 'Value #B'],
              rename: { 'Value #A': 'ends in', 'Value #B': 'end time' },
            }),
          ),
      )
      // ------------------------------------------------------------ L1 validators
      .withRow(row('L1 validators'))
      .withPanel(
        timeseriesPanel('L1 fee runway')
          .height(8)
          .span(8)
          .description(
            `Watched ACP-77 L1 validators: balance / fee price = how long the balance pays the continuous fee. 0 = inactive. AvalancheL1ValidatorBalanceLow at ${durationWords(t.l1RunwayWarning)} (warning) and ${durationWords(t.l1RunwayCritical)} (critical).`,
          )
          .withTarget(range(q.sel('avax_l1_validator_balance_runway_seconds'), '{{target}} {{node_id}}').refId('A'))
          .unit('s')
          .thresholds(runwaySteps())
          .thresholdsStyle(new common.GraphThresholdsStyleConfigBuilder().mode(common.GraphThresholdsStyleMode.Line))
          .min(0),
      )
      .withPanel(
        tablePanel('L1 validators: balance and runway', 'runway')
          .height(8)
          .span(8)
          .description('Balance 0 (red) = inactive L1 validator (AvalancheL1ValidatorInactive). Top up with an IncreaseL1ValidatorBalanceTx.')
          .targets(
            refs(
              tableQuery(`max by (target, subnet, node_id) (${q.sel('avax_l1_validator_balance_avax')})`),
              tableQuery(`max by (target, subnet, node_id) (${q.sel('avax_l1_validator_balance_runway_seconds')})`),
            ),
          )
          .thresholds(steps(['green', null]))
          .overrideByName('balance (AVAX)', [prop.cellBackground(), prop.thresholds(steps(['red', null], ['green', 1e-9]))])
          .overrideByName('runway', [prop.cellBackground(), prop.thresholds(runwaySteps()), prop.unit('dtdurations')])
          .transformations(
            mergeColumns({
              hide: ['Time'],
              order: ['target', 'subnet', 'node_id', 'Value #A', 'Value #B'],
              rename: { 'Value #A': 'balance (AVAX)', 'Value #B': 'runway' },
            }),
          ),
      )
      .withPanel(
        ofMetric(timeseriesPanel('L1 validator fee price'), 'avax_l1_validator_fee_price_navax_per_second')
          .height(8)
          .span(8)
          .description(
            'platform.getValidatorFeeState price: nAVAX per second per active L1 validator (mainnet minimum 512). It rises while more than the target number of L1 validators are active.',
          )
          .withTarget(range(q.sel('avax_l1_validator_fee_price_navax_per_second'), '{{target}}').refId('A'))
          .thresholds(steps(['green', null]))
          .min(0),
      )
      .withRow(row('Reward outcomes'))
      .withPanel(
        tablePanel('Last validation reward', 'paid (AVAX)')
          .height(8)
          .span(12)
          .description(
            'The last watched primary-network validation of each node that ended while the exporter ran: the reward platform.getRewardUTXOs lists for it against the potential reward it showed. Paid 0 with a reward expected (red) = AvalancheValidationEndedWithoutReward. Empty until a watched validation ends; the exporter keeps this in memory only (a restart clears it).',
          )
          .targets(
            refs(
              tableQuery(`max by (target, node_id) (${q.sel('avax_validator_last_reward_avax')})`),
              tableQuery(`max by (target, node_id) (${q.sel('avax_validator_last_potential_reward_avax')})`),
              tableQuery(`max by (target, node_id) (${q.sel('avax_validator_last_reward_timestamp_seconds')}) * 1000`),
            ),
          )
          .thresholds(steps(['green', null]))
          .overrideByName('paid (AVAX)', [prop.cellBackground(), prop.thresholds(steps(['red', null], ['green', 1e-9]))])
          .overrideByName('ended', [prop.unit('dateTimeAsIso')])
          .transformations(
            mergeColumns({
              hide: ['Time'],
              order: ['target', 'node_id', 'Value #C', 'Value #A', 'Value #B'],
              rename: { 'Value #A': 'paid (AVAX)', 'Value #B': 'expected (AVAX)', 'Value #C': 'ended' },
            }),
          ),
      )
      .withPanel(
        ofMetric(timeseriesPanel('Reward owner balance'), 'avax_reward_owner_balance_avax')
          .height(8)
          .span(12)
          .withTarget(range(q.sel('avax_reward_owner_balance_avax'), '{{target}} {{node_id}}').refId('A'))
          .thresholds(steps(['green', null]))
          .min(0),
      ),
    ctx,
  );
}
