// The landing page's HTML as a function of the runner state (the browser check is test/e2e/landing.test.ts).
import { describe, expect, it } from 'vitest';
import { RUNBOOK_URL } from '../../src/project-links.js';
import { landingPage, relativeAge } from '../../src/server/landing.js';
import type { TargetView } from '../../src/server/target-view.js';

const NOW = Date.parse('2026-05-14T09:22:00Z');
const collector = (over: Partial<TargetView['collectors'][number]> = {}): TargetView['collectors'][number] => ({
  name: 'chain-height',
  enabled: true,
  intervalSeconds: 15,
  ran: true,
  success: true,
  durationSeconds: 0.1,
  lastSuccessSeconds: NOW / 1000 - 200,
  errors: [],
  ...over,
});
const target = (over: Partial<TargetView> = {}): TargetView => ({ name: 'n1', url: 'http://127.0.0.1:9650', reference: false, up: 1, collectors: [collector()], ...over });
const page = (targets: TargetView[]) => landingPage({ version: '1.2.3', telemetryPath: '/metrics', targets, nowMs: NOW });

describe('landing page', () => {
  it('default: relative ages', () => {
    expect([0.2, 42.9, 59, 60, 199, 3599, 3600, 86399, 86400 * 3, -5].map(relativeAge)).toEqual([
      'just now', '42 s ago', '59 s ago', '1 min ago', '3 min ago', '59 min ago', '1 h ago', '23 h ago', '3 d ago', 'just now',
    ]);
  });

  it('default: node ID and version per target, ages with the exact time in a title, never-run shown as never', () => {
    const html = page([target({ nodeId: 'NodeID-abc', nodeVersion: 'avalanchego/1.14.2', collectors: [collector(), collector({ name: 'health', lastSuccessSeconds: undefined, success: false, errors: ['x'] })] })]);
    expect(html).toContain('<code class="nw">NodeID-abc</code>');
    expect(html).toContain('avalanchego/1.14.2');
    expect(html).toContain('<time datetime="2026-05-14T09:18:40.000Z" title="2026-05-14T09:18:40.000Z">3 min ago</time>');
    expect(html).toMatch(/<td class="nw">never<\/td>/);
    expect(html).toMatch(/\.nw,time\{white-space:nowrap\}/);
  });

  it('default: a node without info.getNodeID (public API) and one not known yet are told apart', () => {
    expect(page([target({ nodeId: '' })])).toContain('none (the API does not expose info.getNodeID)');
    expect(page([target({ nodeId: undefined })])).toContain('not known yet');
  });

  it('error: a failing collector has its errors (escaped) and a runbook link; a down target the TargetDown runbook', () => {
    const html = page([target({ up: 0, collectors: [collector({ success: false, errors: ['info.peers: HTTP 502 with an HTML body ("<b>")'] })] })]);
    expect(html).toContain('<td class="failing">failing</td>');
    expect(html).toContain('info.peers: HTTP 502 with an HTML body (&quot;&lt;b&gt;&quot;)');
    expect(html).toContain(`<a class="runbook" href="${RUNBOOK_URL}#avalanchecollectorfailing">runbook</a>`);
    expect(html).toContain(`<a class="runbook" href="${RUNBOOK_URL}#avalanchetargetdown">runbook</a>`);
    expect(page([target()])).not.toContain('class="runbook"');
  });

  it('error: every error of the collector\'s last run is listed', () => {
    const full = page([target({ collectors: [collector({ success: false, errors: ['a: first', 'b: second'] })] })]);
    expect(full).toContain('<ol><li>a: first</li><li>b: second</li></ol>');
    const one = page([target({ collectors: [collector({ success: false, errors: ['platform.getHeight: timeout'] })] })]);
    expect(one).toContain('platform.getHeight: timeout');
    expect(one).not.toContain('<ol>');
  });

  it('default: refreshes at the shortest enabled collector interval, between 5 and 60 s', () => {
    expect(page([target()])).toContain('<meta http-equiv="refresh" content="15">');
    expect(page([target({ collectors: [collector({ intervalSeconds: 1 })] })])).toContain('content="5"');
    expect(page([target({ collectors: [collector({ intervalSeconds: 300 })] })])).toContain('content="60"');
    expect(page([])).toContain('content="15"');
  });
});
