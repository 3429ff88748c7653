import { formatDuration } from '../duration.js';
import { runbookUrl } from '../project-links.js';
import type { TargetView } from './target-view.js';

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** "just now", "42 s ago", "3 min ago", "5 h ago", "2 d ago" (computed when the page is served). */
export function relativeAge(seconds: number): string {
  if (!(seconds >= 0)) return 'just now'; // clock skew or a value in the future
  if (seconds < 1) return 'just now';
  if (seconds < 60) return `${Math.floor(seconds)} s ago`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
  if (seconds < 86400) return `${Math.floor(seconds / 3600)} h ago`;
  return `${Math.floor(seconds / 86400)} d ago`;
}

/** `<time title="ISO time">3 min ago</time>`, or 'never'. */
function age(unixSeconds: number | undefined, nowMs: number): string {
  if (unixSeconds === undefined) return 'never';
  const iso = new Date(unixSeconds * 1000).toISOString();
  return `<time datetime="${iso}" title="${iso}">${relativeAge(nowMs / 1000 - unixSeconds)}</time>`;
}

/** Every error of a collector's last run. */
function errorCell(c: TargetView['collectors'][number]): string {
  const list = c.errors;
  if (list.length === 0) return '';
  const items = list.map((e) => esc(e));
  return list.length === 1 ? items[0]! : `<ol>${items.map((i) => `<li>${i}</li>`).join('')}</ol>`;
}

function nodeIdentity(t: TargetView): string {
  const id = t.nodeId === undefined ? '<span class="pending">not known yet</span>' : t.nodeId === '' ? '<span class="pending">none (the API does not expose info.getNodeID)</span>' : `<code class="nw">${esc(t.nodeId)}</code>`;
  const version = t.nodeVersion === undefined ? '<span class="pending">not known yet</span>' : esc(t.nodeVersion);
  return `<dl><dt>node ID</dt><dd>${id}</dd><dt>version</dt><dd>${version}</dd></dl>`;
}

/** Beside a target that is down: the runbook of AvalancheTargetDown (collector alerts are silent then). */
function downRunbook(up: string): string {
  return up === 'down' ? ` <a class="runbook" href="${esc(runbookUrl('AvalancheTargetDown'))}">runbook</a>` : '';
}

export interface LandingData {
  version: string;
  telemetryPath: string;
  targets: TargetView[];
  /** Clock of the page (ms); relative ages are computed against it. */
  nowMs?: number;
}

/**
 * The `/` page: per target its node ID and version, up or down, and the state of every collector with
 * relative ages, errors and a runbook link beside a failing one. It refreshes itself every base
 * collection interval (the shortest collector interval, 5-60 s), the rhythm at which it can change.
 */
export function landingPage(p: LandingData): string {
  const now = p.nowMs ?? Date.now();
  const intervals = p.targets.flatMap((t) => t.collectors.filter((c) => c.enabled).map((c) => c.intervalSeconds));
  const refresh = Math.min(60, Math.max(5, Math.round(intervals.length ? Math.min(...intervals) : 15)));
  const upOf = (t: TargetView) => (t.up === undefined ? 'pending' : t.up === 1 ? 'up' : 'down');
  const stateOf = (c: TargetView['collectors'][number]) => (!c.enabled ? 'disabled' : !c.ran ? 'pending' : c.success ? 'ok' : 'failing');

  const summary = p.targets
    .map((t) => {
      const up = upOf(t);
      const failing = t.collectors.filter((c) => stateOf(c) === 'failing').map((c) => c.name);
      return `<tr><td class="nw"><a href="#t-${esc(encodeURIComponent(t.name))}">${esc(t.name)}</a></td><td class="nw"><span class="${up === 'up' ? 'ok' : up === 'down' ? 'failing' : 'pending'}">${up}</span>${downRunbook(up)}</td><td>${t.nodeId ? `<code class="nw">${esc(t.nodeId)}</code>` : '-'}</td><td class="nw">${t.nodeVersion ? esc(t.nodeVersion) : '-'}</td><td>${failing.length ? `<span class="failing">${failing.length} failing</span>: ${esc(failing.join(', '))}` : 'none failing'}</td></tr>`;
    })
    .join('\n');

  const rows = p.targets
    .map((t) => {
      const cols = t.collectors
        .map((c) => {
          const state = stateOf(c);
          const runbook = state === 'failing' ? ` <a class="runbook" href="${esc(runbookUrl('AvalancheCollectorFailing'))}">runbook</a>` : '';
          return `<tr><td class="nw">${esc(c.name)}</td><td class="${state}">${state}</td><td class="nw">${c.enabled ? formatDuration(c.intervalSeconds) : '-'}</td><td class="nw">${c.ran ? c.durationSeconds.toFixed(3) + ' s' : '-'}</td><td class="nw">${age(c.lastSuccessSeconds, now)}</td><td>${errorCell(c)}${runbook}</td></tr>`;
        })
        .join('\n');
      const up = upOf(t);
      return `<h2 id="t-${esc(encodeURIComponent(t.name))}">${esc(t.name)} <small>${esc(t.url)}${t.reference ? ' (reference)' : ''}: <span class="${up === 'up' ? 'ok' : up === 'down' ? 'failing' : 'pending'}">${up}</span>${downRunbook(up)}</small></h2>
${nodeIdentity(t)}
<p><a href="/probe?target=${encodeURIComponent(t.name)}">metrics of this target</a></p>
<table><tr><th>collector</th><th>state</th><th>interval</th><th>last duration</th><th>last success</th><th>last error</th></tr>
${cols}
</table>`;
    })
    .join('\n');
  const generated = new Date(now).toISOString();
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="${refresh}"><meta name="viewport" content="width=device-width, initial-scale=1"><title>avalanche-exporter</title>
<style>body{font-family:sans-serif;margin:2em;max-width:90em}table{border-collapse:collapse;margin-bottom:1em}td,th{border:1px solid #ccc;padding:.2em .6em;text-align:left;vertical-align:top}.nw,time{white-space:nowrap}.ok{color:#080}.failing{color:#b00}.pending,.disabled,.more,.meta{color:#777}dl{display:grid;grid-template-columns:max-content auto;gap:.1em 1em;margin:.3em 0}dt{font-weight:bold}dd{margin:0}ol{margin:0;padding-left:1.2em}a.runbook{white-space:nowrap;font-weight:bold}</style>
</head><body>
<h1>avalanche-exporter</h1>
<p>Prometheus exporter for Avalanche nodes, version ${esc(p.version)}. <span class="meta">Page generated <time datetime="${generated}" title="${generated}">${generated.replace('T', ' ').replace(/\.\d+Z$/, ' UTC')}</time>; refreshes every ${refresh} s.</span></p>
<ul><li><a href="${esc(p.telemetryPath)}">${esc(p.telemetryPath)}</a></li><li><a href="/healthz">/healthz</a></li></ul>
<table><tr><th>target</th><th>state</th><th>node ID</th><th>version</th><th>collectors</th></tr>
${summary}
</table>
${rows}
</body></html>
`;
}
