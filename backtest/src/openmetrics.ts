// OpenMetrics with timestamps, as `promtool tsdb create-blocks-from openmetrics` reads it: one file
// per block window (aligned on the block duration since the epoch, so one file becomes one block and
// promtool parses it once), `name{labels} value seconds` lines without metadata, `# EOF` at the end.
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/** A sample line with its timestamp (seconds with milliseconds, as OpenMetrics writes it). */
export function omLine(sample: string, tsMs: number): string {
  return `${sample} ${formatSeconds(tsMs)}`;
}

export function formatSeconds(tsMs: number): string {
  const s = Math.floor(tsMs / 1000);
  const ms = tsMs - s * 1000;
  return ms === 0 ? String(s) : `${s}.${String(ms).padStart(3, '0')}`;
}

export interface WrittenFile {
  readonly path: string;
  readonly fromMs: number;
  readonly samples: number;
  readonly bytes: number;
}

/** Appends scrapes to OpenMetrics files, one per `windowMs` window; scrapes must come in time order. */
export class OpenMetricsWriter {
  private fd: number | undefined;
  private windowStart = NaN;
  private current: { path: string; fromMs: number; samples: number; bytes: number } | undefined;
  private readonly done: WrittenFile[] = [];
  private buffer: string[] = [];
  private bufferBytes = 0;
  private lastTs = -Infinity;

  constructor(private readonly dir: string, private readonly windowMs: number, private readonly prefix = 'scrapes') {
    mkdirSync(dir, { recursive: true });
  }

  /** One scrape: its samples (`name{labels} value`) at `tsMs`. */
  scrape(tsMs: number, samples: readonly string[]): void {
    if (tsMs <= this.lastTs) throw new Error(`scrapes out of order: ${tsMs} after ${this.lastTs}`);
    this.lastTs = tsMs;
    const window = Math.floor(tsMs / this.windowMs) * this.windowMs;
    if (window !== this.windowStart) this.open(window);
    const ts = formatSeconds(tsMs);
    for (const s of samples) {
      const line = `${s} ${ts}\n`;
      this.buffer.push(line);
      this.bufferBytes += line.length;
    }
    this.current!.samples += samples.length;
    if (this.bufferBytes > 4 << 20) this.flush();
  }

  /** Ends the last file; returns every file written. */
  close(): WrittenFile[] {
    this.finish();
    return [...this.done];
  }

  private open(window: number): void {
    this.finish();
    this.windowStart = window;
    const path = join(this.dir, `${this.prefix}-${new Date(window).toISOString().replace(/[:]/g, '').replace(/\.\d+Z$/, 'Z')}.om`);
    this.fd = openSync(path, 'w');
    this.current = { path, fromMs: window, samples: 0, bytes: 0 };
  }

  private flush(): void {
    if (this.fd === undefined || this.buffer.length === 0) return;
    const text = this.buffer.join('');
    writeSync(this.fd, text);
    this.current!.bytes += Buffer.byteLength(text);
    this.buffer = [];
    this.bufferBytes = 0;
  }

  private finish(): void {
    if (this.fd === undefined) return;
    this.buffer.push('# EOF\n');
    this.flush();
    closeSync(this.fd);
    this.fd = undefined;
    this.done.push({ ...this.current! });
    this.current = undefined;
  }
}
