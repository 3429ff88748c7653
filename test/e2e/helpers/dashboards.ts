// Panel queries of the shipped Grafana dashboards, with Grafana's template variables replaced so
// that Prometheus can run them directly.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface PanelQuery {
  dashboard: string;
  panel: string;
  refId: string;
  /** as written in the dashboard */
  expr: string;
  /** with $target → .*, $__rate_interval → 1m, $__range → 5m, $__interval → 15s */
  query: string;
}

interface Panel {
  title?: string;
  panels?: Panel[];
  targets?: { expr?: string; refId?: string }[];
}

export function substitute(expr: string): string {
  return expr
    .replace(/\$\{target(:[a-z]+)?\}|\$target\b/g, '.*')
    .replace(/\$\{__rate_interval\}|\$__rate_interval\b/g, '1m')
    .replace(/\$\{__range\}|\$__range\b/g, '5m')
    .replace(/\$\{__interval\}|\$__interval\b/g, '15s');
}

export function dashboardQueries(dir: string): PanelQuery[] {
  const out: PanelQuery[] = [];
  for (const f of readdirSync(dir).filter((x) => x.endsWith('.json')).sort()) {
    const d = JSON.parse(readFileSync(join(dir, f), 'utf8')) as { panels?: Panel[] };
    const walk = (ps: Panel[] | undefined): void => {
      for (const p of ps ?? []) {
        walk(p.panels);
        for (const t of p.targets ?? []) {
          if (!t.expr) continue;
          out.push({ dashboard: f, panel: p.title ?? '(untitled)', refId: t.refId ?? '?', expr: t.expr, query: substitute(t.expr) });
        }
      }
    };
    walk(d.panels);
  }
  return out;
}
