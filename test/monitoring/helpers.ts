// Reading generated rule files and dashboards back, and PromQL parsed with lezer-promql (the parser
// of Prometheus' own UI), for the tests of src/monitoring.
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { parser } from '@prometheus-io/lezer-promql';
import YAML from 'yaml';

export interface Matcher {
  name: string;
  op: string;
  value: string;
}
export interface Selector {
  metric: string | undefined;
  matchers: Matcher[];
  text: string;
}

function unquote(s: string): string {
  if (s.startsWith('`')) return s.slice(1, -1);
  if (s.startsWith("'")) return JSON.parse(`"${s.slice(1, -1).replace(/"/g, '\\"')}"`) as string;
  return JSON.parse(s) as string;
}

/** Syntax errors and every vector selector (those inside range selectors included) of a PromQL expression. */
export function parsePromQL(src: string): { errors: string[]; selectors: Selector[] } {
  const errors: string[] = [];
  const selectors: Selector[] = [];
  parser.parse(src).iterate({
    enter(ref) {
      if (ref.type.isError) {
        errors.push(`syntax error at ${ref.from}: ...${src.slice(Math.max(0, ref.from - 20), ref.to + 20)}...`);
        return;
      }
      if (ref.name !== 'VectorSelector') return;
      const node = ref.node;
      const id = node.getChild('Identifier');
      const sel: Selector = { metric: id ? src.slice(id.from, id.to) : undefined, matchers: [], text: src.slice(ref.from, ref.to) };
      const lm = node.getChild('LabelMatchers');
      for (let m = lm?.firstChild ?? null; m; m = m.nextSibling) {
        const nameNode = m.getChild('LabelName') ?? m.getChild('QuotedLabelName');
        const opNode = m.getChild('MatchOp');
        const valNode = m.getChild('StringLiteral');
        if (!nameNode || !opNode || !valNode) continue;
        const raw = src.slice(nameNode.from, nameNode.to);
        sel.matchers.push({ name: nameNode.name === 'QuotedLabelName' ? unquote(raw) : raw, op: src.slice(opNode.from, opNode.to), value: unquote(src.slice(valNode.from, valNode.to)) });
      }
      if (sel.metric === undefined) sel.metric = sel.matchers.find((m) => m.name === '__name__' && m.op === '=')?.value;
      selectors.push(sel);
    },
  });
  return { errors, selectors };
}

/** Grafana variables replaced by plain values, so that the expression is plain PromQL. */
export function withoutGrafanaVariables(expr: string): string {
  return expr.replace(/\$__rate_interval|\$__interval|\$__range/g, '5m').replace(/\$\{?target\}?/g, 'TARGET');
}

/**
 * The PromQL queries inside Go template annotations: printf `...` format strings, with the printf
 * verbs replaced (%q → "x", %% → %).
 */
export function templateQueries(annotation: string): string[] {
  return [...annotation.matchAll(/printf `([^`]*)`/g)].map((m) => m[1]!.replace(/%q/g, '"x"').replace(/%%/g, '%'));
}

export interface LoadedRule {
  file: string;
  alert: string;
  expr: string;
  for: string;
  labels: Record<string, string>;
  annotations: Record<string, string>;
}

/** The files of `dir` whose names end with `suffix`, sorted; none when `dir` does not exist. */
function filesEndingIn(dir: string, suffix: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).filter((f) => f.endsWith(suffix)).sort();
}

export function loadRules(dir: string): LoadedRule[] {
  return filesEndingIn(dir, '.rules.yaml').flatMap((file) => {
    const doc = YAML.parse(readFileSync(join(dir, file), 'utf8')) as { groups: { rules: Omit<LoadedRule, 'file'>[] }[] };
    return doc.groups.flatMap((g) => g.rules.map((r) => ({ ...r, expr: String(r.expr), file })));
  });
}

interface Panel {
  type: string;
  title: string;
  panels?: Panel[];
  targets?: { expr?: string; refId?: string }[];
  description?: string;
  fieldConfig?: { defaults?: Record<string, unknown>; overrides?: { matcher: { options: string }; properties: { id: string; value: unknown }[] }[] };
}
export interface LoadedDashboard {
  file: string;
  json: { uid: string; _comment?: string; templating: { list: Record<string, unknown>[] }; panels: Panel[] };
  panels: Panel[];
}

export function loadDashboards(dir: string): LoadedDashboard[] {
  return filesEndingIn(dir, '.json').map((file) => {
    const json = JSON.parse(readFileSync(join(dir, file), 'utf8')) as LoadedDashboard['json'];
    const panels: Panel[] = [];
    const walk = (ps: Panel[] | undefined) => {
      for (const p of ps ?? []) {
        if (p.type !== 'row') panels.push(p);
        walk(p.panels);
      }
    };
    walk(json.panels);
    return { file, json, panels };
  });
}

export interface Query {
  where: string;
  expr: string;
}

/** Every PromQL expression of a generated output directory: rule exprs, annotation template queries, panel queries, variable queries. */
export function allQueries(outDir: string): Query[] {
  const out: Query[] = [];
  for (const r of loadRules(join(outDir, 'alerts'))) {
    out.push({ where: `${r.file} ${r.alert} expr`, expr: r.expr });
    for (const [k, v] of Object.entries(r.annotations)) templateQueries(v).forEach((q, i) => out.push({ where: `${r.file} ${r.alert} ${k} query ${i + 1}`, expr: q }));
  }
  for (const d of loadDashboards(join(outDir, 'dashboards'))) {
    for (const p of d.panels) for (const t of p.targets ?? []) if (t.expr) out.push({ where: `${d.file} "${p.title}" ${t.refId}`, expr: withoutGrafanaVariables(t.expr) });
    for (const v of d.json.templating.list) {
      const m = typeof v['query'] === 'string' ? /^label_values\((.*), *\w+\)$/.exec(v['query']) : null;
      if (m) out.push({ where: `${d.file} variable ${String(v['name'])}`, expr: m[1]! });
    }
  }
  return out;
}
