// Issue 14 panels: the chains of the subnets/L1s the node validates (subnet-chains) on the validator
// dashboard; the advertised IP (node-info) and the log levels (admin-logger) on the node dashboard.
// In their own file so that validator.ts and node.ts each take one line to add them.
import type * as dashboard from '@grafana/grafana-foundation-sdk/dashboard';
import { mergeColumns, ofMetric, prop, range, redGreen, refs, row, stateTimelinePanel, steps, tablePanel, tableQuery, valueText, type DashboardContext } from './kit.js';

/** Row "L1 and subnet chains": one table row per chain, the subnets' health and membership over time. */
export function withChainPanels(b: dashboard.DashboardBuilder, { q }: DashboardContext): dashboard.DashboardBuilder {
  return b
    .withRow(row('L1 and subnet chains'))
    .withPanel(
      tablePanel('Chains of the watched subnets', 'status')
        .height(8)
        .span(14)
        .description(
          'platform.getBlockchains for the primary network (X, C) and the L1s this node validates or runs. status: platform.getBlockchainStatus (Validating expected where the node is a validator; Created = not run here). VM: 1 when info.getVMs lists the VM the chain needs. Refreshed one item per minute.',
        )
        .targets(
          refs(
            tableQuery(`max by (target, subnet, name, blockchain_id, vm_id) (${q.sel('avax_chain_info')})`),
            tableQuery(`max by (target, blockchain_id, status) (${q.sel('avax_chain_status')})`),
            tableQuery(`max by (target, blockchain_id) (${q.sel('avax_chain_vm_installed')})`),
          ),
        )
        .thresholds(steps(['green', null]))
        .overrideByName('VM installed', [prop.cellBackground(), prop.thresholds(steps(['red', null], ['green', 1]))])
        .transformations(
          mergeColumns({
            hide: ['Time', 'Value #A', 'Value #B'],
            order: ['target', 'subnet', 'name', 'blockchain_id', 'status', 'vm_id', 'Value #C'],
            rename: { 'Value #C': 'VM installed' },
          }),
        ),
    )
    .withPanel(
      stateTimelinePanel('Subnet health and validator membership')
        .height(8)
        .span(10)
        .description(
          "healthy: the node's health report for the subnet's tag (health.health {tags:[subnet]}). validator: this node is in the subnet's current validator set (primary: getCurrentValidators; L1: getValidatorsAt proposed).",
        )
        .targets(
          refs(
            range(q.sel('avax_subnet_healthy'), '{{target}} {{subnet}} healthy'),
            range(q.sel('avax_subnet_node_is_validator'), '{{target}} {{subnet}} validator'),
          ),
        )
        .mappings(valueText([0, 'NO / FAILING', 'red'], [1, 'yes / OK', 'green']))
        .thresholds(redGreen()),
    );
}

/** Row "Identity and logging": the advertised IP over time and the loggers' levels. */
export function withIdentityPanels(b: dashboard.DashboardBuilder, { q }: DashboardContext): dashboard.DashboardBuilder {
  return b
    .withRow(row('Identity and logging'))
    .withPanel(
      stateTimelinePanel('Advertised IP (info.getNodeIP)')
        .height(6)
        .span(12)
        .description('One lane per advertised ip:port (the ip label of avax_node_info). A second lane within an hour is AvalancheValidatorIpChanged: peers must reconnect to the new address.')
        .withTarget(range(`max by (target, ip) (${q.sel('avax_node_info', 'ip!=""')})`, '{{target}} {{ip}}').refId('A'))
        .mappings(valueText([1, 'advertised', 'blue']))
        .thresholds(steps(['blue', null])),
    )
    .withPanel(
      ofMetric(tablePanel('Log levels (Admin API)', 'logger'), 'avax_node_log_level')
        .height(6)
        .span(12)
        .description('admin.getLoggerLevel, with --collector.admin-logger and the node started with --api-admin-enabled (empty otherwise: a normal state). DEBUG or VERBO for more than a day fills the disk (AvalancheNodeLogLevelVerbose).')
        .withTarget(tableQuery(`max by (target, logger, level) (${q.sel('avax_node_log_level')})`).refId('A'))
        .thresholds(steps(['green', null]))
        .transformations(mergeColumns({ hide: ['Time', 'Value'], order: ['target', 'logger', 'level'], rename: {} })),
    );
}
