// What the backtest needs of an Alertmanager configuration (examples/alertmanager.yml): the routing
// tree (matchers, group_by, group_wait, group_interval, repeat_interval, continue) and the inhibit
// rules, with Alertmanager's matcher semantics (regexes anchored, a missing label is ""). Pure.
// Routing is cross-checked against `amtool config routes test` (amtool.ts).
import { parse as parseYaml } from 'yaml';
import { parseDurationMs } from './duration.js';

export type Labels = Readonly<Record<string, string>>;

export interface Matcher {
  readonly name: string;
  readonly op: '=' | '!=' | '=~' | '!~';
  readonly value: string;
  readonly re?: RegExp;
}

/** `name="value"`, `name=~"a|b"`, `name!="v"`, `name!~"re"` (value quoted or bare). */
export function parseMatcher(text: string): Matcher {
  const m = /^\s*([a-zA-Z_][a-zA-Z0-9_]*)\s*(=~|!~|!=|=)\s*(?:"((?:[^"\\]|\\.)*)"|([^"]*?))\s*$/.exec(text);
  if (!m) throw new Error(`not an Alertmanager matcher: ${JSON.stringify(text)}`);
  const op = m[2] as Matcher['op'];
  const value = m[3] !== undefined ? m[3].replace(/\\(.)/g, '$1') : (m[4] ?? '');
  return { name: m[1]!, op, value, re: op === '=~' || op === '!~' ? new RegExp(`^(?:${value})$`) : undefined };
}

export function matches(m: Matcher, labels: Labels): boolean {
  const v = labels[m.name] ?? '';
  switch (m.op) {
    case '=':
      return v === m.value;
    case '!=':
      return v !== m.value;
    case '=~':
      return m.re!.test(v);
    case '!~':
      return !m.re!.test(v);
  }
}

export const matchesAll = (ms: readonly Matcher[], labels: Labels): boolean => ms.every((m) => matches(m, labels));

export interface Route {
  /** path in the tree, e.g. `0` (root), `0.1` */
  readonly id: string;
  readonly receiver: string;
  readonly matchers: readonly Matcher[];
  readonly groupBy: readonly string[];
  readonly groupWaitMs: number;
  readonly groupIntervalMs: number;
  readonly repeatIntervalMs: number;
  readonly continue: boolean;
  readonly routes: readonly Route[];
}

export interface InhibitRule {
  readonly source: readonly Matcher[];
  readonly target: readonly Matcher[];
  readonly equal: readonly string[];
}

export interface AlertmanagerConfig {
  readonly route: Route;
  readonly inhibit: readonly InhibitRule[];
}

interface RawRoute {
  receiver?: string;
  matchers?: string[];
  group_by?: string[];
  group_wait?: string;
  group_interval?: string;
  repeat_interval?: string;
  continue?: boolean;
  routes?: RawRoute[];
}

// Alertmanager's defaults (config/config.go).
const DEFAULTS = { groupWaitMs: 30_000, groupIntervalMs: 300_000, repeatIntervalMs: 4 * 3_600_000 };

function duration(v: string | undefined, inherited: number, what: string): number {
  if (v === undefined) return inherited;
  const ms = parseDurationMs(v);
  if (ms === undefined) throw new Error(`alertmanager: bad ${what} ${JSON.stringify(v)}`);
  return ms;
}

function route(raw: RawRoute, parent: Omit<Route, 'id' | 'matchers' | 'routes' | 'continue'>, id: string): Route {
  const own = {
    receiver: raw.receiver ?? parent.receiver,
    groupBy: raw.group_by ?? parent.groupBy,
    groupWaitMs: duration(raw.group_wait, parent.groupWaitMs, 'group_wait'),
    groupIntervalMs: duration(raw.group_interval, parent.groupIntervalMs, 'group_interval'),
    repeatIntervalMs: duration(raw.repeat_interval, parent.repeatIntervalMs, 'repeat_interval'),
  };
  return {
    id,
    ...own,
    matchers: (raw.matchers ?? []).map(parseMatcher),
    continue: raw.continue ?? false,
    routes: (raw.routes ?? []).map((r, i) => route(r, own, `${id}.${i}`)),
  };
}

export function parseAlertmanagerConfig(text: string): AlertmanagerConfig {
  const doc = parseYaml(text) as { route?: RawRoute; inhibit_rules?: { source_matchers?: string[]; target_matchers?: string[]; equal?: string[] }[] };
  if (!doc?.route?.receiver) throw new Error('alertmanager: no route with a receiver');
  const root = route(doc.route, { receiver: doc.route.receiver, groupBy: [], ...DEFAULTS }, '0');
  const inhibit = (doc.inhibit_rules ?? []).map((r) => {
    if (!r.source_matchers || !r.target_matchers) throw new Error('alertmanager: only source_matchers/target_matchers inhibit rules are supported');
    return { source: r.source_matchers.map(parseMatcher), target: r.target_matchers.map(parseMatcher), equal: r.equal ?? [] };
  });
  return { route: root, inhibit };
}

/** The routes an alert goes to (Alertmanager's Route.Match: depth first, `continue` goes on). */
export function routesFor(root: Route, labels: Labels): Route[] {
  const walk = (r: Route): Route[] => {
    if (!matchesAll(r.matchers, labels)) return [];
    const out: Route[] = [];
    for (const c of r.routes) {
      const found = walk(c);
      out.push(...found);
      if (found.length > 0 && !c.continue) break;
    }
    return out.length > 0 ? out : [r];
  };
  return walk(root);
}

/** The group an alert falls into on a route: its id and the values of group_by. */
export function groupKey(r: Route, labels: Labels): string {
  const by = r.groupBy.includes('...') ? Object.keys(labels).sort() : r.groupBy;
  return `${r.id}:${by.map((k) => `${k}=${JSON.stringify(labels[k] ?? '')}`).join(',')}`;
}
