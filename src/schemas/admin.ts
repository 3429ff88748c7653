import { z } from 'zod';

/**
 * Admin API (`POST /ext/admin`; disabled unless the node runs with --api-admin-enabled=true, then
 * a plain-text 404): avalanchego v1.14.2 api/admin/service.go (GetLoggerLevel).
 */

/** avalanchego's log levels (utils/logging/level.go), from the most to the least verbose. */
export const LOG_LEVELS = ['VERBO', 'DEBUG', 'TRACE', 'INFO', 'WARN', 'ERROR', 'FATAL', 'OFF'] as const;

/** A level name; upper-cased, and refused when it is not one of avalanchego's (a label must not carry free text). */
const LogLevel = z
  .string()
  .transform((s) => s.toUpperCase())
  .pipe(z.enum(LOG_LEVELS));

/** admin.getLoggerLevel {}: `{loggerLevels: {<logger>: {logLevel, displayLevel}}}`, every logger when no loggerName is given. */
export const AdminGetLoggerLevelResult = z.object({
  loggerLevels: z
    .record(z.string().min(1).max(128), z.object({ logLevel: LogLevel, displayLevel: LogLevel.optional() }))
    .nullish()
    .transform((v) => v ?? {}),
});
export type AdminGetLoggerLevelResult = z.output<typeof AdminGetLoggerLevelResult>;
