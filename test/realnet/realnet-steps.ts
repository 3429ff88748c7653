// Steps the realnet tests share: waiting for the exporter's cycles, for a node's series to leave or come
// back, and comparing a quiet network with the exporter (node-truth.ts). Every wait is bounded.
import { expect } from 'vitest';
import { find, value, type ParsedExposition } from '../helpers/exposition-parser.js';
import { waitFor } from '../helpers/proc.js';
import type { Traffic } from './c-chain-traffic.js';
import type { RealnetExporter } from './exporter-run.js';
import type { RealNetwork, RealNode } from './network.js';
import { compareWithNode, type Mismatch } from './node-truth.js';

/** The families a target keeps while its node does not answer: the exporter's own view of it. */
export const SELF_FAMILIES = new Set([
  'avax_up',
  'avax_collector_success',
  'avax_collector_duration_seconds',
  'avax_collector_last_success_timestamp_seconds',
  'avax_rpc_requests_total',
  'avax_rpc_request_duration_seconds',
  'avax_collection_skipped_ticks_total',
]);

/** The collectors of `target` and whether each succeeded in its last run. */
export function collectorStates(p: ParsedExposition, target: string): Map<string, number> {
  return new Map(find(p, 'avax_collector_success', { target }).map((s) => [s.labels['collector']!, s.value]));
}

/** The collectors of `target` that did not succeed, or whose last success is before `sinceSeconds`. */
export function notFreshCollectors(p: ParsedExposition, target: string, sinceSeconds = 0): string[] {
  const bad: string[] = [];
  for (const [collector, ok] of collectorStates(p, target)) {
    const last = value(p, 'avax_collector_last_success_timestamp_seconds', { target, collector }) ?? 0;
    if (ok !== 1 || last < sinceSeconds) bad.push(`${collector}${ok !== 1 ? ' (failing)' : ` (last success ${(sinceSeconds - last).toFixed(1)} s too early)`}`);
  }
  return bad;
}

/** Waits until every collector of every target listed succeeded in a run that started after `sinceMs`. */
export async function waitFreshCycle(exporter: RealnetExporter, targets: readonly string[], sinceMs: number, timeoutMs: number): Promise<ParsedExposition> {
  let last: ParsedExposition | undefined;
  try {
    return await waitFor(async () => {
      const p = (last = await exporter.scrape());
      const ok = targets.every((t) => collectorStates(p, t).size > 0 && notFreshCollectors(p, t, sinceMs / 1000).length === 0);
      return ok ? p : undefined;
    }, timeoutMs, 500);
  } catch (e) {
    const detail = last ? targets.map((t) => `  ${t}: ${notFreshCollectors(last!, t, sinceMs / 1000).join(', ') || 'fresh'}`).join('\n') : '(no scrape)';
    throw new Error(`${String(e)}\ncollectors not yet fresh:\n${detail}`);
  }
}

/** Series of `target` outside the exporter's own families (what must leave when its node is down). */
export function nodeSeriesOf(p: ParsedExposition, target: string): string[] {
  return p.samples.filter((s) => s.labels['target'] === target && !SELF_FAMILIES.has(familyOf(p, s.name))).map((s) => s.name);
}

function familyOf(p: ParsedExposition, sampleName: string): string {
  for (const suffix of ['_bucket', '_sum', '_count', '']) {
    const base = suffix ? sampleName.slice(0, -suffix.length) : sampleName;
    if (sampleName.endsWith(suffix) && p.families.has(base)) return base;
  }
  return sampleName;
}

/**
 * Pauses the C-Chain traffic, waits until every running node has executed the same C height and the exporter
 * has run every collector of every target since, and compares each node's answers with the exporter's series.
 */
export async function compareQuietNetwork(net: RealNetwork, exporter: RealnetExporter, traffic: Traffic, nodes: readonly RealNode[] = net.nodes): Promise<void> {
  traffic.pause();
  try {
    // A transfer sent just before the pause is executed within a few seconds.
    await new Promise((r) => setTimeout(r, 3_000));
    const pausedAt = Date.now();
    const p = await waitFreshCycle(exporter, nodes.map((n) => n.name), pausedAt, 6 * exporter.intervalSeconds * 1000);
    const ids = net.nodes.map((n) => n.nodeId);
    const all: Mismatch[] = [];
    for (const n of nodes) all.push(...(await compareWithNode(p, n, ids)));
    expect(all, 'the exporter published exactly what each node answered').toEqual([]);
  } finally {
    traffic.resume();
  }
}
