// The landing page in a real browser (issue 12, point 8): headless Chromium opens `/` of an exporter
// watching the simulated node and a URL that is not an avalanchego API (a proxy's HTML error page),
// and the test asserts on what is rendered: node ID, version, up/down, relative ages that never wrap,
// the error that says what came instead of the API, the runbook link beside failing collectors, and
// the page's own refresh. `npm run check:landing` runs this file alone.
//
// The screenshot docs/landing-page.png (shown in the README) is rewritten only with UPDATE_SCREENSHOT=1;
// every run writes one to the temporary directory and prints its path.
//
// Needs `chromium` on PATH (Debian package). Without it the test is skipped with a loud message,
// except under CI, where it fails.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COLLECTORS } from '../../src/collectors/index.js';
import { startExporter, type Exporter } from '../../src/main.js';
import { loadConfig } from '../../src/config/load.js';
import { RUNBOOK_URL } from '../../src/project-links.js';
import { startSimNode, type SimNode } from '@avalanche-exporter/simulated-node';
import { startServer, type TestServer } from '../helpers/http-server.js';
import { memoryLogger } from '../helpers/log.js';
import { ROOT, waitFor } from '../helpers/proc.js';
import { launchChromium, type Browser } from './helpers/chromium.js';
import { onPath } from './helpers/programs.js';

const CI = !['', '0', 'false'].includes((process.env['CI'] ?? '').toLowerCase());
const CHROMIUM = onPath('chromium') ?? onPath('chromium-browser');
const SCREENSHOT = join(ROOT, 'docs', 'landing-page.png');

if (!CHROMIUM && !CI) {
  console.warn(
    `\n${'!'.repeat(78)}\n!! SKIPPING test/e2e/landing.test.ts: chromium is not on PATH.\n` +
      `!! Install it (apt-get install chromium) to check the landing page in a browser.\n` +
      `!! Under CI (CI=1) this is a failure, not a skip.\n${'!'.repeat(78)}\n`,
  );
}

/** What a reverse proxy answers when the node behind it is gone (nginx's page, byte for byte in shape). */
const NGINX_502 = '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx/1.22.1</center>\r\n</body>\r\n</html>\r\n';

interface Rendered {
  text: string;
  refresh: string | null;
  times: { text: string; title: string; whiteSpace: string; lines: number }[];
  runbooks: { href: string; row: string }[];
  width: number;
}

const RENDERED_JS = `(() => ({
  text: document.body.innerText,
  refresh: document.querySelector('meta[http-equiv="refresh"]')?.getAttribute('content') ?? null,
  times: [...document.querySelectorAll('time')].map((t) => ({ text: t.innerText, title: t.title, whiteSpace: getComputedStyle(t).whiteSpace, lines: t.getClientRects().length })),
  runbooks: [...document.querySelectorAll('a.runbook')].map((a) => ({ href: a.href, row: (a.closest('tr') ?? a.closest('h2'))?.innerText ?? '' })),
  width: document.documentElement.scrollWidth,
}))()`;

describe.skipIf(!CHROMIUM && !CI)('landing page in headless Chromium', () => {
  let sim: SimNode;
  let proxy: TestServer;
  let exporter: Exporter;
  let browser: Browser | undefined;
  let rendered: Rendered;
  let png: Buffer;
  const dir = mkdtempSync(join(tmpdir(), 'avax-exporter-landing-'));

  beforeAll(async () => {
    if (!CHROMIUM) throw new Error('chromium is not on PATH but CI is set: install the Debian package `chromium`');
    sim = await startSimNode({ validators: 50, peers: 60, healthIntervalMs: 1000 });
    proxy = await startServer((_req, res) => {
      res.writeHead(502, { 'content-type': 'text/html', 'content-length': Buffer.byteLength(NGINX_502) });
      res.end(NGINX_502);
    });
    const proxyUrl = proxy.url;
    const yaml = `web: { listenAddress: "127.0.0.1:0" }
collection: { interval: 5s }
targets:
  - { name: demo-node, url: "${sim.url}" }
  - { name: behind-proxy, url: "${proxyUrl}" }
`;
    const { config } = loadConfig({ argv: ['--config.file', 'landing.yaml'], env: {}, readFile: () => yaml });
    exporter = await startExporter({ config, logger: memoryLogger('silent').logger });
    // Both targets' start-up cycles are done: the node's identity is known, the proxy's collectors failed.
    await waitFor(async () => {
      const html = await (await fetch(`${exporter.url}/`)).text();
      return html.includes(sim.nodeId()) && html.includes('avalanchego/1.15.0') && html.includes('>failing<') && !html.includes('>pending<');
    }, 20_000);
    // Let the ages read "N s ago" rather than "just now".
    await new Promise((r) => setTimeout(r, 1500));
    browser = await launchChromium(CHROMIUM);
    const page = await browser.open(`${exporter.url}/`);
    rendered = await page.evaluate<Rendered>(RENDERED_JS);
    png = await page.screenshot();
    const out = join(dir, 'landing-page.png');
    writeFileSync(out, png);
    console.log(`[landing] screenshot of this run: ${out}${process.env['UPDATE_SCREENSHOT'] === '1' ? ` (copied to ${SCREENSHOT})` : ''}`);
    if (process.env['UPDATE_SCREENSHOT'] === '1') writeFileSync(SCREENSHOT, png);
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    await exporter?.stop();
    await sim?.close();
    await proxy?.close();
    if (process.env['CHECK_LANDING'] !== '1') rmSync(dir, { recursive: true, force: true });
  });

  it('default: shows each target with node ID, version and up/down', () => {
    expect(rendered.text).toContain(sim.nodeId());
    expect(rendered.text).toContain('avalanchego/1.15.0'); // the simulator's default version
    expect(rendered.text).toMatch(/demo-node\s+up\s+NodeID-/);
    expect(rendered.text).toMatch(new RegExp(`behind-proxy\\s+down runbook\\s+-\\s+-\\s+${COLLECTORS.filter((c) => c.enabled).length} failing`));
    expect(rendered.text).toMatch(/node ID\s+none|node ID\s+not known yet/); // the proxy target has no identity
  });

  it('default: ages are relative ("N s ago"), with the exact time on hover, and never wrap', () => {
    const ages = rendered.times.filter((t) => / ago$/.test(t.text));
    expect(ages.length).toBeGreaterThan(5);
    for (const t of rendered.times) {
      expect(t.whiteSpace, t.text).toBe('nowrap');
      expect(t.lines, `"${t.text}" wraps over ${t.lines} lines`).toBe(1);
      expect(t.title).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    }
  });

  it('error: a URL that is not an avalanchego API says so on the page, with a runbook link beside the failing collectors', () => {
    expect(rendered.text).toContain('HTTP 502 with an HTML body ("502 Bad Gateway"): this URL does not look like an avalanchego API; expected JSON-RPC at /ext/info');
    expect(rendered.text).not.toContain('<html>');
    // Beside each failing collector: AvalancheCollectorFailing; beside the target that is down: AvalancheTargetDown.
    const collectorLinks = rendered.runbooks.filter((r) => r.href === `${RUNBOOK_URL}#avalanchecollectorfailing`);
    expect(collectorLinks).toHaveLength(COLLECTORS.filter((c) => c.enabled).length); // the collectors on by default;
    for (const r of collectorLinks) expect(r.row).toMatch(/\tfailing\t/);
    const downLinks = rendered.runbooks.filter((r) => r.href === `${RUNBOOK_URL}#avalanchetargetdown`);
    expect(downLinks).toHaveLength(2); // summary row and heading of the target
    for (const r of downLinks) expect(r.row).toMatch(/^behind-proxy\s.*down/);
    expect(rendered.runbooks).toHaveLength(collectorLinks.length + downLinks.length);
  });

  it('default: every error of a failing collector\'s run is listed, never "(and N more)"', () => {
    expect(rendered.text).not.toMatch(/\(and \d+ more\)/);
    // behind-proxy: node-info makes several calls, each answered by the proxy's HTML page.
    expect((rendered.text.match(/with an HTML body/g) ?? []).length).toBeGreaterThanOrEqual(2);
  });

  it('default: refreshes itself as often as a collector can change it (the shortest collector interval: 15 s)', () => {
    expect(rendered.refresh).toBe('15');
    expect(rendered.text).toContain('refreshes every 15 s');
  });

  it('default: the screenshot is a real page, and docs/landing-page.png is a PNG of it', () => {
    const isPng = (b: Buffer) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(isPng(png)).toBe(true);
    expect(png.readUInt32BE(16)).toBe(1280); // IHDR width
    expect(png.length).toBeGreaterThan(20_000);
    expect(existsSync(SCREENSHOT), 'docs/landing-page.png missing: run UPDATE_SCREENSHOT=1 npm run check:landing').toBe(true);
    const doc = readFileSync(SCREENSHOT);
    expect(isPng(doc)).toBe(true);
    expect(doc.readUInt32BE(16)).toBe(1280);
    expect(rendered.width).toBeLessThanOrEqual(1280); // no horizontal scrolling at that width
  });
});
