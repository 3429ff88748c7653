// The serving thread (--web.serving-thread, src/server/serving-thread.ts): the HTTP server in a worker
// thread that holds every target's /probe bytes, so a probe is answered while the main thread is busy;
// /metrics, the landing page, reload and unknown names are asked of the main thread and answered as in
// one thread. The thread is the real one (dist/server/serving-thread-entry.js: `npm test` builds first).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import bcrypt from 'bcryptjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { SERVING_THREAD_AUTO_TARGETS } from '../../src/config/settings.js';
import { startExporter, type Exporter } from '../../src/main.js';
import { startSimNode, type SimNode } from '@avalanche-exporter/simulated-node';
import { memoryLogger } from '../helpers/log.js';

const dir = mkdtempSync(join(tmpdir(), 'avax-exporter-serving-thread-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const targetsYaml = (targets: readonly { name: string; url: string }[]) =>
  `collection: { interval: 5s }\ntargets:\n${targets.map((t) => `  - { name: ${t.name}, url: "${t.url}" }`).join('\n')}\n`;

function configOf(yaml: () => string, flags: readonly string[] = []) {
  return loadConfig({ argv: ['--config.file', 'fleet.yaml', '--web.listen-address', '127.0.0.1:0', ...flags], env: {}, readFile: yaml }).config;
}

/** GET from another process while this thread is blocked in execFileSync: only a thread of its own can answer. */
function getWhileMainThreadBlocked(url: string): { status: number; body: string } {
  const script = `fetch(${JSON.stringify(url)}, { signal: AbortSignal.timeout(4000) }).then(async (r) => process.stdout.write(JSON.stringify({ status: r.status, body: await r.text() })), (e) => process.stdout.write(JSON.stringify({ status: 0, body: String(e) })))`;
  return JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 10_000 })) as { status: number; body: string };
}

const sampleLines = (text: string) => text.split('\n').filter((l) => l !== '' && !l.startsWith('#'));

describe('serving thread: /probe from a thread of its own', () => {
  let sim: SimNode;
  let exporter: Exporter;
  const log = memoryLogger('info');
  let yaml = '';
  let base = '';

  beforeAll(async () => {
    // v1.14.2 (pinned: the default is 1.15.0). Between two 1.15.0 nodes each sees the other's ACP vote: /metrics then
    // holds avax_acp_node_vote{target="a"} (derived from target b) that /probe?target=a does not: the exporter's side.
    sim = await startSimNode({ nodes: 2, validators: 30, peers: 30, version: '1.14.2' });
    yaml = targetsYaml([{ name: 'a', url: sim.nodeUrl(0) }, { name: 'b', url: sim.nodeUrl(1) }]);
    exporter = await startExporter({
      config: configOf(() => yaml, ['--web.serving-thread', 'on', '--web.enable-lifecycle']),
      logger: log.logger,
      schedule: false,
      reloadConfig: () => configOf(() => yaml, ['--web.serving-thread', 'on', '--web.enable-lifecycle']),
      enableReloadEndpoint: true,
    });
    base = exporter.url;
    await exporter.collectOnce();
  }, 60_000);

  afterAll(async () => {
    await exporter?.stop();
    await sim?.close();
  });

  it('default: --web.serving-thread on serves from the thread (no server on the main thread), and logs that it listens', () => {
    expect(exporter.servingThread).toBeDefined();
    expect(exporter.server).toBeUndefined();
    expect(log.lines().some((l) => l['event'] === 'listening' && l['thread'] === 'serving')).toBe(true);
  });

  it('behavior: once a target is probed, its probe is answered while the main thread is blocked (in one thread it would wait)', async () => {
    expect(exporter.servingThread!.watching().has('a')).toBe(false);
    expect((await fetch(`${base}/probe?target=a`)).status).toBe(200);
    expect(exporter.servingThread!.watching().has('a')).toBe(true);
    const r = getWhileMainThreadBlocked(`${base}/probe?target=a`);
    expect(r.status).toBe(200);
    expect(r.body).toContain('avax_up{target="a"} 1');
    expect(r.body).not.toContain('target="b"');
  });

  it('behavior: /probe holds exactly target a\'s series of /metrics, with HELP and TYPE; gzip and HEAD as in one thread', async () => {
    const probe = await (await fetch(`${base}/probe?target=a`)).text();
    const metrics = await (await fetch(`${base}/metrics`)).text();
    const ofA = sampleLines(metrics).filter((l) => l.includes('target="a"') && !l.startsWith('avax_fleet_'));
    expect(sampleLines(probe).sort()).toEqual(ofA.sort());
    expect(probe).toMatch(/^# HELP avax_up /m);
    const gz = await fetch(`${base}/probe?target=a`, { headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    const head = await fetch(`${base}/probe?target=a`, { method: 'HEAD', headers: { 'accept-encoding': 'identity' } });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    expect(Number(head.headers.get('content-length'))).toBe(Buffer.byteLength(probe));
  });

  it('behavior: /metrics is the main thread\'s render, gzip or plain; a later cycle is in the next scrape and in the probe', async () => {
    const raw = await fetch(`${base}/metrics`, { headers: { 'accept-encoding': 'gzip' } });
    expect(raw.headers.get('content-encoding')).toBe('gzip');
    const plain = await (await fetch(`${base}/metrics`)).text();
    expect(plain).toBe(exporter.current().text.toString());
    expect(plain).toContain('avax_exporter_build_info');
    const before = await (await fetch(`${base}/probe?target=b`)).text();
    await sim.setScenario('down', 1);
    // Cycles until one of b's collectors is due (they are spread over the ticks) and finds it down.
    for (let i = 0; i < 12 && !exporter.current().text.toString().includes('avax_up{target="b"} 0'); i++) await exporter.collectOnce();
    // b is watched (probed above): its new publication is in the thread, answered with the main thread blocked.
    const after = getWhileMainThreadBlocked(`${base}/probe?target=b`).body;
    expect(before).toContain('avax_up{target="b"} 1');
    expect(after).toContain('avax_up{target="b"} 0');
    expect(await (await fetch(`${base}/metrics`)).text()).toContain('avax_up{target="b"} 0');
    await sim.setScenario('healthy', 1);
    for (let i = 0; i < 12 && !exporter.current().text.toString().includes('avax_up{target="b"} 1'); i++) await exporter.collectOnce();
    expect(await (await fetch(`${base}/probe?target=b`)).text()).toContain('avax_up{target="b"} 1');
    // The gzip of a watched target's new text is made off the thread (zlib's pool) once it arrives: two
    // publications back to back, then the gzip answer is the newest text, byte for byte.
    await exporter.collectOnce();
    await exporter.collectOnce();
    await new Promise((r) => setTimeout(r, 300));
    const zipped = await fetch(`${base}/probe?target=b`, { headers: { 'accept-encoding': 'gzip' } });
    expect(zipped.headers.get('content-encoding')).toBe('gzip');
    const unzipped = await zipped.text(); // fetch inflates it
    expect(unzipped).toBe(await (await fetch(`${base}/probe?target=b`, { headers: { 'accept-encoding': 'identity' } })).text());
    const ofB = sampleLines((await exporter.render()).text.toString()).filter((l) => l.includes('target="b"') && !l.startsWith('avax_fleet_'));
    expect(sampleLines(unzipped).sort()).toEqual(ofB.sort());
  });

  it('default: the landing page lists the targets (asked of the main thread)', async () => {
    const html = await (await fetch(`${base}/`)).text();
    expect(html).toContain(sim.nodeId(0));
    expect(html).toContain('>a<');
  });

  it('error: an unknown name is 400 and does not echo a URL, as in one thread', async () => {
    const r = await fetch(`${base}/probe?target=${encodeURIComponent('http://user:pw@10.0.0.1:9650')}`);
    expect(r.status).toBe(400);
    expect(await r.text()).not.toContain('pw');
  });

  it('behavior: POST /-/reload goes to the main thread and answers when the reload is done', async () => {
    const r = await fetch(`${base}/-/reload`, { method: 'POST' });
    expect(await r.text()).toBe('reloaded\n');
    expect(r.status).toBe(200);
    expect(log.lines().some((l) => l['event'] === 'config_reloaded')).toBe(true);
  });

  it('error: a reload that fails answers 400 with the reason, from the main thread', async () => {
    yaml = 'targets: [ { name: a } ]\n';
    const r = await fetch(`${base}/-/reload`, { method: 'POST' });
    expect(r.status).toBe(400);
    expect(await r.text()).toMatch(/^reload failed: .*url/s);
    yaml = targetsYaml([{ name: 'a', url: sim.nodeUrl(0) }, { name: 'b', url: sim.nodeUrl(1) }]);
  });

  it('behavior: a thread that stops is started again and gets every probe again; both are logged', async () => {
    const thread = exporter.servingThread!;
    expect(thread.started).toBe(1);
    await thread.crashForTest();
    let ok = false;
    for (let i = 0; i < 100 && !ok; i++) {
      await new Promise((r) => setTimeout(r, 100));
      ok = await fetch(`${base}/healthz`).then((r) => r.ok, () => false);
    }
    expect(ok).toBe(true);
    expect(thread.started).toBe(2);
    expect(thread.watching().size).toBe(0);
    expect((await fetch(`${base}/probe?target=a`)).status).toBe(200);
    const r = getWhileMainThreadBlocked(`${base}/probe?target=a`);
    expect(r.status).toBe(200);
    expect(r.body).toContain('avax_up{target="a"} 1');
    const events = log.lines().map((l) => l['event']);
    expect(events).toContain('serving_thread_stopped');
    expect(events).toContain('serving_thread_restarted');
  }, 30_000);
});

describe('serving thread: what it holds', () => {
  it('behavior: a target nobody probes for probeIdleMs is let go (the thread drops it, the main thread stops sending it)', async () => {
    const sim = await startSimNode({ validators: 10, peers: 10 });
    const e = await startExporter({ config: configOf(() => targetsYaml([{ name: 'a', url: sim.url }]), ['--web.serving-thread', 'on']), logger: memoryLogger('silent').logger, schedule: false, probeIdleMs: 300 });
    try {
      await e.collectOnce();
      expect((await fetch(`${e.url}/probe?target=a`)).status).toBe(200);
      expect(e.servingThread!.watching().has('a')).toBe(true);
      let watched = true;
      for (let i = 0; i < 50 && watched; i++) {
        await new Promise((r) => setTimeout(r, 100));
        watched = e.servingThread!.watching().has('a');
      }
      expect(watched).toBe(false);
      // Probed again: asked of the main thread, watched again.
      expect(await (await fetch(`${e.url}/probe?target=a`)).text()).toContain('avax_up{target="a"} 1');
      expect(e.servingThread!.watching().has('a')).toBe(true);
    } finally {
      await e.stop();
      await sim.close();
    }
  }, 30_000);
});

describe('serving thread: its own event-loop delay', () => {
  it('behavior: is in /metrics once the thread has measured a window (its window in the help), in order, and not with the thread off', async () => {
    const sim = await startSimNode({ validators: 10, peers: 10 });
    const yaml = () => targetsYaml([{ name: 'a', url: sim.url }]);
    const on = await startExporter({ config: configOf(yaml, ['--web.serving-thread', 'on']), logger: memoryLogger('silent').logger, schedule: false, loopWindowMs: 500 });
    const off = await startExporter({ config: configOf(yaml, ['--web.serving-thread', 'off']), logger: memoryLogger('silent').logger, schedule: false, loopWindowMs: 500 });
    try {
      let text = '';
      for (let i = 0; i < 50 && !text.includes('nodejs_serving_thread_eventloop_delay_max_seconds '); i++) {
        await new Promise((r) => setTimeout(r, 100));
        await on.collectOnce(); // a new render, with the latest window
        text = await (await fetch(`${on.url}/metrics`)).text();
      }
      const value = (q: string) => Number(new RegExp(`^nodejs_serving_thread_eventloop_delay_${q}_seconds (\\S+)$`, 'm').exec(text)?.[1]);
      const [p50, p99, max] = [value('p50'), value('p99'), value('max')];
      expect([p50, p99, max].every((v) => Number.isFinite(v) && v >= 0), text.slice(-800)).toBe(true);
      expect(p50).toBeLessThanOrEqual(p99);
      expect(p99).toBeLessThanOrEqual(max);
      expect(max).toBeLessThan(30); // a window is 0.5 s; no figure is a raw nanosecond count
      expect(text).toContain('over its last 0.5 s window');
      await off.collectOnce();
      const offText = await (await fetch(`${off.url}/metrics`)).text();
      expect(offText).toContain('nodejs_eventloop_lag_p99_seconds');
      expect(offText).not.toContain('nodejs_serving_thread_eventloop_delay');
    } finally {
      await on.stop();
      await off.stop();
      await sim.close();
    }
  }, 30_000);
});

describe('serving thread: a big fleet\'s /metrics', () => {
  it('behavior: a watched scrape is answered from the render handed over, with the main thread blocked, and a later cycle comes with the next render', async () => {
    const sim = await startSimNode({ nodes: 2, validators: 10, peers: 10 });
    const yaml = targetsYaml([{ name: 'a', url: sim.nodeUrl(0) }, { name: 'b', url: sim.nodeUrl(1) }]);
    // Every render counts as one a scrape does not wait for (as with 1,000 targets): handed to the thread as made.
    const e = await startExporter({ config: configOf(() => yaml, ['--web.serving-thread', 'on']), logger: memoryLogger('silent').logger, schedule: false, scrapeWaitMaxRenderMs: -1 });
    try {
      await e.collectOnce();
      // Not watched yet: this scrape is asked of the main thread and waits for a current render.
      expect(await (await fetch(`${e.url}/metrics`)).text()).toContain('avax_up{target="b"} 1');
      await sim.setScenario('down', 1);
      for (let i = 0; i < 12 && !e.current().text.toString().includes('avax_up{target="b"} 0'); i++) await e.collectOnce();
      // The render with b down was handed over: the thread answers with it while the main thread cannot.
      const r = getWhileMainThreadBlocked(`${e.url}/metrics`);
      expect(r.status).toBe(200);
      expect(r.body).toContain('avax_up{target="b"} 0');
      expect(r.body).toContain('avax_up{target="a"} 1');
    } finally {
      await e.stop();
      await sim.close();
    }
  }, 30_000);
});

describe('serving thread: start-up', () => {
  it('default: auto starts it from SERVING_THREAD_AUTO_TARGETS targets, not below; off never, on always', async () => {
    const many = (n: number) => () => targetsYaml(Array.from({ length: n }, (_, i) => ({ name: `t${i}`, url: `http://127.0.0.1:1/${i}` })));
    const cases: [number, string, boolean][] = [
      [SERVING_THREAD_AUTO_TARGETS, 'auto', true],
      [SERVING_THREAD_AUTO_TARGETS - 1, 'auto', false],
      [SERVING_THREAD_AUTO_TARGETS, 'off', false],
      [1, 'on', true],
    ];
    for (const [n, mode, thread] of cases) {
      const e = await startExporter({ config: configOf(many(n), ['--web.serving-thread', mode]), logger: memoryLogger('silent').logger, schedule: false });
      try {
        expect([n, mode, e.servingThread !== undefined]).toEqual([n, mode, thread]);
        expect((await fetch(`${e.url}/healthz`)).status).toBe(200);
      } finally {
        await e.stop();
      }
    }
  }, 30_000);

  it('error: an address in use fails the start with the listen error and its code, as in one thread', async () => {
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', () => r()));
    const port = (blocker.address() as { port: number }).port;
    try {
      const cfg = loadConfig({ argv: ['--web.listen-address', `127.0.0.1:${port}`, '--web.serving-thread', 'on'], env: {} }).config;
      await expect(startExporter({ config: cfg, logger: memoryLogger('silent').logger, schedule: false })).rejects.toMatchObject({ code: 'EADDRINUSE', message: expect.stringContaining('EADDRINUSE') });
    } finally {
      blocker.close();
    }
  });

  it('behavior: basic auth of --web.config.file is checked in the thread (401 without, 200 with; /healthz open)', async () => {
    const web = join(dir, 'web.yml');
    writeFileSync(web, `basic_auth_users:\n  prometheus: '${bcrypt.hashSync('s3cret', 8)}'\n`);
    const e = await startExporter({ config: configOf(() => targetsYaml([{ name: 'a', url: 'http://127.0.0.1:1' }]), ['--web.serving-thread', 'on', '--web.config.file', web]), logger: memoryLogger('silent').logger, schedule: false });
    try {
      expect((await fetch(`${e.url}/metrics`)).status).toBe(401);
      expect((await fetch(`${e.url}/healthz`)).status).toBe(200);
      const auth = { authorization: `Basic ${Buffer.from('prometheus:s3cret').toString('base64')}` };
      expect((await fetch(`${e.url}/metrics`, { headers: auth })).status).toBe(200);
    } finally {
      await e.stop();
    }
  });
});
