import { formatDuration } from '../config/duration.js';
import type { TargetView } from './server.js';

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The `/` page: name, version, targets (URLs redacted), collector status, links. */
export function landingPage(p: { version: string; telemetryPath: string; targets: TargetView[] }): string {
  const rows = p.targets
    .map((t) => {
      const cols = t.collectors
        .map((c) => {
          const state = !c.enabled ? 'disabled' : !c.ran ? 'pending' : c.success ? 'ok' : 'failing';
          const last = c.lastSuccessSeconds ? new Date(c.lastSuccessSeconds * 1000).toISOString() : '-';
          return `<tr><td>${esc(c.name)}</td><td class="${state}">${state}</td><td>${c.enabled ? formatDuration(c.intervalSeconds) : '-'}</td><td>${c.ran ? c.durationSeconds.toFixed(3) + ' s' : '-'}</td><td>${esc(last)}</td><td>${esc(c.lastError ?? '')}</td></tr>`;
        })
        .join('\n');
      const up = t.up === undefined ? 'pending' : t.up === 1 ? 'up' : 'down';
      return `<h2>${esc(t.name)} <small>${esc(t.url)}${t.reference ? ' (reference)' : ''}: <span class="${up === 'up' ? 'ok' : up === 'down' ? 'failing' : 'pending'}">${up}</span></small></h2>
<p><a href="/probe?target=${encodeURIComponent(t.name)}">metrics of this target</a></p>
<table><tr><th>collector</th><th>state</th><th>interval</th><th>last duration</th><th>last success</th><th>last error</th></tr>
${cols}
</table>`;
    })
    .join('\n');
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>avalanche-exporter</title>
<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.2em .6em;text-align:left}.ok{color:#080}.failing{color:#b00}.pending,.disabled{color:#888}</style>
</head><body>
<h1>avalanche-exporter</h1>
<p>Prometheus exporter for Avalanche nodes, version ${esc(p.version)}.</p>
<ul><li><a href="${esc(p.telemetryPath)}">${esc(p.telemetryPath)}</a></li><li><a href="/healthz">/healthz</a></li></ul>
${rows}
</body></html>
`;
}
