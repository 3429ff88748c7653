import pino, { type Logger } from 'pino';
import { Writable } from 'node:stream';

/** A pino logger that keeps its JSON lines in memory. */
export function memoryLogger(level = 'debug'): { logger: Logger; lines: () => Record<string, unknown>[]; raw: () => string } {
  let buf = '';
  const stream = new Writable({
    write(chunk, _enc, cb) {
      buf += chunk.toString();
      cb();
    },
  });
  const logger = pino({ level }, stream);
  return {
    logger,
    raw: () => buf,
    lines: () =>
      buf
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>),
  };
}
