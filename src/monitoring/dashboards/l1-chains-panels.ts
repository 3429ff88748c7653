// Issue 14 panels: the chains of the subnets/L1s the node validates (subnet-chains) on the validator
// dashboard; the advertised IP (node-info) and the log levels (admin-logger) on the node dashboard.
// In their own file so that validator.ts and node.ts each take one line to add them.
import type * as dashboard from '@grafana/grafana-foundation-sdk/dashboard';
import { durationWords } from '../duration.js';
import { prop, range, row, steps, valueText, type DashboardContext } from './kit.js';
import { columnsTable, timeline } from './panels.js';

/** Row "L1 and subnet chains": one table row per chain, the subnets' health and membership over time. */
export function withChainPanels(b: dashboard.DashboardBuilder, { q }: DashboardContext): dashboard.DashboardBuilder {
  return b
    .withRow(row('L1 and subnet chains'))
    .withPanel(
      columnsTable([8, 14], 'Chains of the watched subnets', {
        sortBy: 'status',
        description:
          'platform.getBlockchains for the primary network (X, C) and the L1s this node validates or runs. status: platform.getBlockchainStatus (Validating expected where the node is a validator; Created = not run here). VM: 1 when info.getVMs lists the VM the chain needs. Refreshed one item per minute.',
        labels: ['target', 'subnet', 'name', 'blockchain_id', 'status', 'vm_id'],
        columns: [
          { hidden: `max by (target, subnet, name, blockchain_id, vm_id) (${q.sel('avax_chain_info')})` },
          { hidden: `max by (target, blockchain_id, status) (${q.sel('avax_chain_status')})` },
          { name: 'VM installed', query: `max by (target, blockchain_id) (${q.sel('avax_chain_vm_installed')})`, props: [prop.cellBackground(), prop.thresholds(steps(['red', null], ['green', 1]))] },
        ],
      }),
    )
    .withPanel(
      timeline(
        [8, 10],
        'Subnet health and validator membership',
        "healthy: the node's health report for the subnet's tag (health.health {tags:[subnet]}). validator: this node is in the subnet's current validator set (primary: getCurrentValidators; L1: getValidatorsAt proposed).",
        valueText([0, 'NO / FAILING', 'red'], [1, 'yes / OK', 'green']),
        range(q.sel('avax_subnet_healthy'), '{{target}} {{subnet}} healthy'),
        range(q.sel('avax_subnet_node_is_validator'), '{{target}} {{subnet}} validator'),
      ),
    );
}

/** Row "Identity and logging": the advertised IP over time and the loggers' levels. */
export function withIdentityPanels(b: dashboard.DashboardBuilder, { q, t }: DashboardContext): dashboard.DashboardBuilder {
  return b
    .withRow(row('Identity and logging'))
    .withPanel(
      timeline(
        [6, 12],
        'Advertised IP (info.getNodeIP)',
        `One lane per advertised ip:port (the ip label of avax_node_info). A second lane within ${durationWords(t.ipChangeWindow, { article: true })} is AvalancheValidatorIpChanged: peers must reconnect to the new address.`,
        valueText([1, 'advertised', 'blue']),
        range(`max by (target, ip) (${q.sel('avax_node_info', 'ip!=""')})`, '{{target}} {{ip}}'),
      ).thresholds(steps(['blue', null])),
    )
    .withPanel(
      columnsTable([6, 12], 'Log levels (Admin API)', {
        sortBy: 'logger',
        description: `admin.getLoggerLevel, with --collector.admin-logger and the node started with --api-admin-enabled (empty otherwise: a normal state). DEBUG or VERBO for more than ${durationWords(t.verboseLogFor, { article: true })} fills the disk (AvalancheNodeLogLevelVerbose).`,
        labels: ['target', 'logger', 'level'],
        columns: [{ hidden: `max by (target, logger, level) (${q.sel('avax_node_log_level')})` }],
      }),
    );
}
