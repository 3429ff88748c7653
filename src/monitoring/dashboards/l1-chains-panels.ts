// Issue 14 panels: the chains of the subnets/L1s the node validates (subnet-chains) and (issue 23) the L1
// chains' own progress (node-metrics) on the validator dashboard; the advertised IP (node-info) and the log
// levels (admin-logger) on the node dashboard.
// In their own file so that validator.ts and node.ts each take one line to add them.
import type * as dashboard from '@grafana/grafana-foundation-sdk/dashboard';
import { durationWords } from '../duration.js';
import { prop, range, row, steps, valueText, type DashboardContext } from './kit.js';
import { freshness, L1_DISCOVERY } from '../l1-docs.js';
import { L1_CHAINS } from '../rules/l1-chain-stall.js';
import { columnsTable, series, timeline } from './panels.js';

/** Row "L1 and subnet chains": one table row per chain, the subnets' health and membership over time. */
export function withChainPanels(b: dashboard.DashboardBuilder, { q, t }: DashboardContext): dashboard.DashboardBuilder {
  // The L1 chain's name (avax_chain_info) on a per-chain node-metrics series (chain = its blockchain ID).
  const named = (expr: string) => `${expr} * on(target, chain) group_left(name) label_replace(${q.sel('avax_chain_info')}, "chain", "$1", "blockchain_id", "(.+)")`;
  return b
    .withRow(row('L1 and subnet chains'))
    .withPanel(
      columnsTable([8, 14], 'Chains of the watched subnets', {
        sortBy: 'status',
        description: `platform.getBlockchains for the primary network (X, C) and the L1s this node validates or runs. status: platform.getBlockchainStatus (Validating expected where the node is a validator; Created = not run here). VM: 1 when info.getVMs lists the VM the chain needs. ${L1_DISCOVERY} Refreshed ${freshness('subnet-chains')}.`,
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
        `healthy: the node's health report for the subnet's tag (health.health {tags:[subnet]}), derived every cycle from the health collector's report (absent while a check has not run after a restart). validator: this node's own NodeID is an active validator of the subnet (primary: the full validator list; L1: its current validator list), refreshed ${freshness('subnet-chains')}.`,
        valueText([0, 'NO / FAILING', 'red'], [1, 'yes / OK', 'green']),
        ...(
          [
            ['avax_subnet_healthy', 'healthy'],
            ['avax_subnet_node_is_validator', 'validator'],
          ] as const
        ).map(([metric, lane]) => range(q.sel(metric), `{{target}} {{subnet}} ${lane}`)),
      ),
    )
    .withPanel(
      series(
        [8, 12],
        'L1 chains: time since the last block',
        `The node's own view of each L1 chain it runs (node-metrics, chain = its blockchain ID, named after avax_chain_info): seconds since its last accepted block, refreshed ${freshness('node-metrics')}. An L1 without transactions makes no block: a growing line is normal for an idle L1. AvalancheL1ChainStalled fires when none comes for ${durationWords(t.l1ChainStallWindow)} while blocks wait in consensus (next panel), the chain's health check fails or another target sees the chain move: never for an idle L1, however busy before.`,
        range(named(`time() - ${q.sel('avax_node_last_accepted_timestamp_seconds', L1_CHAINS)}`), '{{target}} {{name}}'),
      )
        .unit('s')
        .min(0),
    )
    .withPanel(
      series(
        [8, 12],
        'L1 chains: blocks waiting in consensus',
        `Blocks issued to the L1 chain's consensus and not yet decided (avax_node_blocks_processing), refreshed ${freshness('node-metrics')}. Above 0 for ${durationWords(t.l1ChainStallWindow)} while the height stays: AvalancheL1ChainStalled.`,
        range(named(q.sel('avax_node_blocks_processing', L1_CHAINS)), '{{target}} {{name}}'),
      ).min(0),
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
