// Headless Chromium (Debian package `chromium`) driven over the DevTools protocol on a pipe
// (--remote-debugging-pipe: JSON messages ending in NUL on file descriptors 3 and 4), so no
// WebSocket client or browser-automation dependency is needed. Only loopback pages are opened;
// background networking, updates, sync and QUIC are off and the profile is a fresh temporary directory.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';

interface Pending {
  resolve: (v: Record<string, unknown>) => void;
  reject: (e: Error) => void;
  timer: NodeJS.Timeout;
}

export interface Browser {
  /** Opens `url` in a new tab of `width` CSS pixels and waits for its load event. */
  open(url: string, width?: number): Promise<Page>;
  close(): Promise<void>;
  log(): string;
}

export interface Page {
  /** Evaluates an expression in the page and returns its value (JSON). */
  evaluate<T>(expression: string): Promise<T>;
  /** A PNG of the whole page (not only the viewport). */
  screenshot(): Promise<Buffer>;
}

const COMMAND_TIMEOUT_MS = 15_000;

export async function launchChromium(bin: string): Promise<Browser> {
  const profile = mkdtempSync(join(tmpdir(), 'avax-exporter-chromium-'));
  const args = [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--no-default-browser-check',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--disable-extensions',
    '--hide-scrollbars',
    '--mute-audio',
    `--user-data-dir=${profile}`,
    '--remote-debugging-pipe',
    'about:blank',
  ];
  // Its own process group: the browser's helper processes end with it if it has to be killed.
  const child: ChildProcess = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe', 'pipe', 'pipe'], detached: true });
  let log = '';
  child.stdout!.on('data', (d) => (log = (log + d).slice(-20_000)));
  child.stderr!.on('data', (d) => (log = (log + d).slice(-20_000)));
  const toBrowser = child.stdio[3] as Writable;
  const fromBrowser = child.stdio[4] as Readable;
  const exited = new Promise<void>((r) => child.once('exit', () => r()));

  let nextId = 1;
  const pending = new Map<number, Pending>();
  const listeners: ((msg: Record<string, unknown>) => void)[] = [];
  let buf = '';
  fromBrowser.on('data', (d: Buffer) => {
    buf += d.toString('utf8');
    let i: number;
    while ((i = buf.indexOf('\0')) >= 0) {
      const msg = JSON.parse(buf.slice(0, i)) as Record<string, unknown>;
      buf = buf.slice(i + 1);
      const id = msg['id'] as number | undefined;
      if (id !== undefined && pending.has(id)) {
        const p = pending.get(id)!;
        pending.delete(id);
        clearTimeout(p.timer);
        if (msg['error']) p.reject(new Error(`CDP error: ${JSON.stringify(msg['error'])}`));
        else p.resolve((msg['result'] ?? {}) as Record<string, unknown>);
      } else {
        for (const l of [...listeners]) l(msg);
      }
    }
  });
  void exited.then(() => {
    for (const [, p] of pending) p.reject(new Error(`chromium exited:\n${log.slice(-2000)}`));
    pending.clear();
  });

  const send = (method: string, params: Record<string, unknown> = {}, sessionId?: string): Promise<Record<string, unknown>> =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      const timer = setTimeout(() => {
        pending.delete(id);
        reject(new Error(`CDP ${method}: no answer within ${COMMAND_TIMEOUT_MS} ms\n${log.slice(-2000)}`));
      }, COMMAND_TIMEOUT_MS);
      pending.set(id, { resolve, reject, timer });
      toBrowser.write(`${JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) })}\0`);
    });

  const waitEvent = (method: string, sessionId: string, timeoutMs = COMMAND_TIMEOUT_MS): Promise<Record<string, unknown>> =>
    new Promise((resolve, reject) => {
      const l = (msg: Record<string, unknown>) => {
        if (msg['method'] === method && msg['sessionId'] === sessionId) {
          listeners.splice(listeners.indexOf(l), 1);
          clearTimeout(timer);
          resolve((msg['params'] ?? {}) as Record<string, unknown>);
        }
      };
      const timer = setTimeout(() => {
        listeners.splice(listeners.indexOf(l), 1);
        reject(new Error(`CDP event ${method} not seen within ${timeoutMs} ms`));
      }, timeoutMs);
      listeners.push(l);
    });

  // The browser answers once it is up (bounded by the command timeout).
  await send('Browser.getVersion');

  return {
    log: () => log,
    async open(url: string, width = 1280): Promise<Page> {
      const { targetId } = (await send('Target.createTarget', { url: 'about:blank' })) as { targetId: string };
      const { sessionId } = (await send('Target.attachToTarget', { targetId, flatten: true })) as { sessionId: string };
      await send('Page.enable', {}, sessionId);
      await send('Emulation.setDeviceMetricsOverride', { width, height: 900, deviceScaleFactor: 1, mobile: false }, sessionId);
      const loaded = waitEvent('Page.loadEventFired', sessionId);
      const nav = (await send('Page.navigate', { url }, sessionId)) as { errorText?: string };
      if (nav.errorText) throw new Error(`navigate ${url}: ${nav.errorText}`);
      await loaded;
      const evaluate = async <T>(expression: string): Promise<T> => {
        const r = (await send('Runtime.evaluate', { expression, returnByValue: true, awaitPromise: true }, sessionId)) as {
          result: { value?: T };
          exceptionDetails?: unknown;
        };
        if (r.exceptionDetails) throw new Error(`evaluate ${expression}: ${JSON.stringify(r.exceptionDetails)}`);
        return r.result.value as T;
      };
      return {
        evaluate,
        async screenshot() {
          const height = Math.ceil(await evaluate<number>('document.documentElement.scrollHeight'));
          await send('Emulation.setDeviceMetricsOverride', { width, height: Math.min(Math.max(height, 300), 4000), deviceScaleFactor: 1, mobile: false }, sessionId);
          const { data } = (await send('Page.captureScreenshot', { format: 'png' }, sessionId)) as { data: string };
          return Buffer.from(data, 'base64');
        },
      };
    },
    async close() {
      await send('Browser.close').catch(() => {});
      const t = setTimeout(() => {
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {
          /* already gone */
        }
      }, 5_000);
      await exited;
      clearTimeout(t);
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
