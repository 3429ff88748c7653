// Routing of the notified alerts, checked with Alertmanager's own code: `amtool config routes test
// --verify.receivers=…` on examples/alertmanager.yml for every distinct label set the routing tree
// can tell apart (the projection on the labels its matchers name, plus alertname).
import type { Labels, Route } from './alertmanager-config.js';
import { routesFor } from './alertmanager-config.js';
import { need, runProgram } from './programs.js';

export interface RoutingCheck {
  readonly labelSets: number;
  readonly failures: readonly string[];
}

function matcherNames(r: Route, out = new Set<string>(['alertname'])): Set<string> {
  for (const m of r.matchers) out.add(m.name);
  for (const c of r.routes) matcherNames(c, out);
  return out;
}

export async function checkRouting(configFile: string, root: Route, labelSets: readonly Labels[]): Promise<RoutingCheck> {
  const amtool = need('amtool', 'checking the routing of the notifications');
  const names = [...matcherNames(root)].sort();
  const distinct = new Map<string, Labels>();
  for (const l of labelSets) {
    const p: Record<string, string> = {};
    for (const n of names) if (l[n] !== undefined) p[n] = l[n]!;
    distinct.set(JSON.stringify(p), p);
  }
  const failures: string[] = [];
  for (const p of distinct.values()) {
    const receivers = routesFor(root, p).map((r) => r.receiver);
    const args = ['config', 'routes', 'test', `--config.file=${configFile}`, `--verify.receivers=${receivers.join(',')}`, ...Object.entries(p).map(([k, v]) => `${k}=${v}`)];
    const out = await runProgram(amtool, args, { timeoutMs: 30_000 });
    if (out.code !== 0) failures.push(`${JSON.stringify(p)}: backtest routes to ${receivers.join(',')}, amtool says ${out.stdout.trim() || out.stderr.trim()}`);
  }
  return { labelSets: distinct.size, failures };
}
