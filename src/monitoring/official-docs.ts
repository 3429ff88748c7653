/**
 * alerts/README.md "Official thresholds": each alert of the Avalanche Builders Hub page "Key Metrics & Alerts"
 * (https://build.avax.network/docs/nodes/maintain/recommended-metrics; read in the page's source,
 * ava-labs/builders-hub content/docs/nodes/maintain/recommended-metrics.mdx at 0aa9be4, and the live page's
 * current text for the query success rate and the disk), what the rules here do with the defaults of
 * settings.ts, and why where they differ. `npm run monitoring` writes the table; test/monitoring/docs.test.ts
 * checks it is current.
 */
import { percent } from './duration.js';
import type { Thresholds } from './settings.js';
import { replaceBlock } from './text.js';

export const KEY_METRICS_URL = 'https://build.avax.network/docs/nodes/maintain/recommended-metrics';

interface OfficialRow {
  /** The page's metric. */
  metric: string;
  /** The page's values. */
  official: string;
  /** Our alert and its default, from the thresholds. */
  ours: (t: Thresholds) => string;
  /** `same`, or why we differ. */
  why: (t: Thresholds) => string;
}

const c = (s: string): string => `\`${s}\``;

const ROWS: readonly OfficialRow[] = [
  {
    metric: 'Query (poll) success rate',
    official: 'warning < 95 %, page < 90 %',
    ours: (t) => `AvalanchePollFailureRatioHigh: failed share, less the stake share not connected, > ${percent(t.pollFailureRatio)} % (warning), > ${percent(t.pollFailureRatioCritical)} % (critical), over 10m for 10m; times sqrt(${t.pollSampleSize} / validators) on a chain of fewer than ${t.pollSampleSize}`,
    why: () => `same values on a network of ${c('k')} validators or more. The page reads the ${c('chits')} message rate; the rules use the node's own ${c('polls_successful')} / ${c('polls_failed')} counters (per chain), whose ratio is the success rate itself. 10m window and ${c('for')}: one lost poll on a quiet chain does not page. Differs: a validator that is down fails its stake share of everyone's polls (it pages as itself), and a network of five fails 2 to 4 % when healthy (real v1.15.0 nodes), so those are left out and scaled.`,
  },
  {
    metric: 'Disk space remaining',
    official: 'warning < 20 %, page < 10 % free',
    ours: (t) => `AvalancheNodeDiskSpaceLow: < ${percent(t.diskFreeWarning)} % (warning), < ${percent(t.diskFreeCritical)} % (critical), for 10m; AvalancheNodeDiskRunwayShort in addition`,
    why: () => 'same values (an older version of the page said 10 % and 5 %; the node itself turns unhealthy at 10 %).',
  },
  {
    metric: `Bad blocks (${c('vm_eth_chain_block_bad_count')})`,
    official: 'page > 10 in 5 min',
    ours: (t) => `AvalancheBadBlocks: ${c(`increase(avax_node_cchain_bad_blocks_total[5m]) > ${t.badBlocks}`)}, critical`,
    why: () => "same value; C-Chain only: an L1's EVM registers the counter under its own VM namespace, which the exporter does not read. Coreth only: a C-Chain on SAE (avalanchego v1.15.0+ after Helicon) has no such counter (AvalancheCChainExecutionStuck watches its execution).",
  },
  {
    metric: `Connected stake (${c('stake_percent_connected')})`,
    official: 'page < 80 %',
    ours: (t) => `AvalancheConnectedStakeLow: < ${percent(t.connectedStakeLow)} % per subnet for 10m, critical`,
    why: () => `same value; 10m ${c('for')}: a restarting node reconnects within a minute or two.`,
  },
  {
    metric: `Processing blocks (${c('blks_processing')})`,
    official: 'warning > 6, page > 15 over 5 min',
    ours: (t) => `AvalancheBlocksProcessingHigh: > ${t.blocksProcessingWarning} (warning), > ${t.blocksProcessingCritical} (critical) for 5m; AvalancheConsensusStuck for a chain that accepts nothing`,
    why: () => 'same values, on chains that finished bootstrapping only (bootstrapping uses no consensus).',
  },
  {
    metric: `Benched validators (${c('benchlist_benched_num')})`,
    official: 'page > 1 over 10 min',
    ours: (t) => `AvalancheBenchedWeightHigh: benched stake > ${percent(t.benchedWeightRatio)} % for 10m, warning`,
    why: () => 'differs: the page\'s value is for an L1 with a handful of validators; on the primary network (1,500+ validators) a few small benched validators are expected at ordinary times (not measured here: no capture of a mainnet node with benched peers), and the share of the stake benched is what slows consensus.',
  },
  {
    metric: `Number of validators (${c('stake_num_validators')})`,
    official: 'page < 1',
    ours: () => 'no alert',
    why: () => 'not adopted: a node that sees no validator also fails its polls and its health checks (AvalanchePollFailureRatioHigh, AvalancheHealthCheckFailing); AvalancheNodeNotInValidatorSet and AvalancheL1ValidatorInactive watch the set from the P-Chain.',
  },
  {
    metric: `Health check failures (${c('health_checks_failing')})`,
    official: 'page > 2 over 5 min',
    ours: () => 'AvalancheNodeUnhealthy, AvalancheHealthCheckFailing (from /ext/health, per check)',
    why: () => 'differs: the rules read the Health API itself, which names the failing check; a count would page without saying which.',
  },
  {
    metric: 'CPU usage (host)',
    official: 'page > 90 % sustained',
    ours: () => 'no alert (dashboard: CPU)',
    why: () => "not adopted: the exporter sees the node's own CPU in cores, not the host's capacity; alert on the host's CPU with node_exporter.",
  },
];

/** The markdown table (header included). */
export function officialTable(t: Thresholds): string {
  const rows = ROWS.map((r) => `| ${r.metric} | ${r.official} | ${r.ours(t)} | ${r.why(t)} |`);
  return ['| Builders Hub metric | official | here (defaults) | same or why not |', '|---|---|---|---|', ...rows].join('\n');
}

const START = '<!-- generated:official -->';
const END = '<!-- /generated:official -->';

/** alerts/README.md with the table between its markers replaced by `officialTable(t)`. */
export function withOfficialTable(readme: string, t: Thresholds): string {
  return replaceBlock(readme, 'alerts/README.md', START, END, officialTable(t));
}
