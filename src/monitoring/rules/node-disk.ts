// Disk runway (issue 27): free space of the node's database volume and the time left, at the growth
// rate of the last thresholds.diskGrowthWindow, until the node turns unhealthy (10 % free) and shuts
// itself down (3 %). From the node's own /ext/metrics (collector node-metrics): the free bytes, and the
// free share avalanchego v1.14.1+ reports as a whole percent. A node before v1.14.1 has no share: none
// of these fire (its diskspace check still pages as AvalancheHealthCheckFailing).
import { durationWords, percent, promDuration, secondsExpr } from '../duration.js';
import type { AlertRule, RuleContext } from './types.js';

/**
 * Seconds until the free share reaches `level` (0 once below it), while the free bytes shrink; absent
 * while they do not. The slope is the slower of the one over thresholds.diskGrowthWindow (a short burst
 * does not page) and the one over the last hour (space freed clears it within the hour).
 * For an alert (`needHistory`; a dashboard shows it at once), absent until Prometheus holds a third of that window
 * of the node's history: on a fresh Prometheus the two slopes are one (a node on a machine where another job
 * wrote 3.4 GB in its first hour paged warning then critical on real v1.15.0 nodes).
 * The volume size is bytes / share; the share is floored by the node (30 for 30.9 %), so the size and
 * the bytes left above the level come out a little small: the runway errs early, never late.
 */
export function diskRunwayExpr({ t, q }: RuleContext, level: number, needHistory = true): string {
  const bytes = q.sel('avax_node_disk_available_bytes');
  const ratio = q.sel('avax_node_disk_available_ratio');
  const long = `deriv(${bytes}[${promDuration(t.diskGrowthWindow)}])`;
  const short = `deriv(${bytes}[1h])`;
  const runway = `clamp_min(
  ${bytes} * (1 - ${level} / (${ratio} > 0))
  / -((((${long}) >= (${short})) or (${short})) < 0),
  0
)`;
  if (!needHistory) return runway;
  // A sample a third of the growth window old (2 h of 6 h): on a fresher Prometheus the long slope is the short one.
  return `(
${runway}
and ${bytes} offset ${promDuration(Math.round(t.diskGrowthWindow / 3))}
)`;
}

export function nodeDiskRules(ctx: RuleContext): AlertRule[] {
  const { t, q } = ctx;
  const ratio = q.sel('avax_node_disk_available_ratio');
  const window = durationWords(t.diskGrowthWindow);
  const spaceLow = (severity: AlertRule['severity'], below: number, comment?: string): AlertRule => ({
    alert: 'AvalancheNodeDiskSpaceLow',
    ...(comment ? { comment } : {}),
    expr: `${ratio} < ${below}`,
    for: '10m',
    severity,
    summary: '{{ $labels.target }}: {{ $value | humanizePercentage }} of the disk is free',
    description: `The database volume of {{ $labels.target }} has {{ $value | humanizePercentage }} free (threshold ${percent(below)} %). The node reports itself unhealthy below ${percent(t.diskUnhealthyLevel)} % and shuts itself down below ${percent(t.diskShutdownLevel)} %, after which it may not start again. Free space or grow the volume.`,
  });
  const runwayShort = (severity: AlertRule['severity'], level: number, within: number, comment?: string): AlertRule => ({
    alert: 'AvalancheNodeDiskRunwayShort',
    ...(comment ? { comment } : {}),
    expr: `${diskRunwayExpr(ctx, level)} < ${secondsExpr(within)}`,
    for: '30m',
    severity,
    summary: `{{ $labels.target }}: the disk reaches ${percent(level)} % free in {{ $value | humanizeDuration }}`,
    description: `At the rate the free space of {{ $labels.target }} shrank over the last ${window}, its database volume reaches ${percent(level)} % free in {{ $value | humanizeDuration }} (threshold ${durationWords(within)}). ${level <= t.diskShutdownLevel ? 'There the node shuts itself down and may not start again.' : 'There the node reports itself unhealthy; it shuts down at ' + percent(t.diskShutdownLevel) + ' %.'} Find what grows (database, logs), prune or grow the volume.`,
  });
  return [
    spaceLow(
      'warning',
      t.diskFreeWarning,
      `Free share of the database volume (v1.14.1+; absent before: silent), thresholds.diskFreeWarning and
diskFreeCritical (the Builders Hub "Key Metrics & Alerts" values, 20 % and 10 %).`,
    ),
    spaceLow('critical', t.diskFreeCritical),
    runwayShort(
      'warning',
      t.diskUnhealthyLevel,
      t.diskRunwayWarning,
      `Seconds until the free share reaches thresholds.diskUnhealthyLevel (the node's unhealthy level) at the
slower of the slopes (deriv) of the free bytes over thresholds.diskGrowthWindow and over the last hour;
volume size = bytes / share. Silent while the free space does not shrink and on nodes without the share
(before v1.14.1).`,
    ),
    runwayShort('critical', t.diskShutdownLevel, t.diskRunwayCritical, 'To thresholds.diskShutdownLevel, where the node shuts itself down.'),
  ];
}
