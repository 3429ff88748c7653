import pino, { type Logger, type DestinationStream } from 'pino';

/** pino JSON logger. Credentials never reach it: URLs are redacted and headers are never logged. */
export function createLogger(level: string, dest?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'avalanche-exporter' },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: ['headers', '*.headers', 'url', '*.url', 'authorization', '*.authorization'], censor: '<redacted>' },
      formatters: { level: (label) => ({ level: label }) },
    },
    dest ?? pino.destination({ fd: 1, sync: false }),
  );
}
