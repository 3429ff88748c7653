import { gauge, sample, type Sample } from '../model.js';
import { ENDPOINTS, rpcCall } from '../node-client/index.js';
import { AdminGetLoggerLevelResult } from '../schemas/admin.js';
import { defineCollector, oneCall, type CollectorOf } from './define.js';

/**
 * admin.getLoggerLevel (issue 14 item 5): the log level each logger of the node writes at. A logger
 * left at DEBUG or VERBO fills the disk. Opt-in: the Admin API is off by default
 * (--api-admin-enabled=false answers a plain-text 404, a normal state: no series, no failure).
 */
export function toSamples(r: AdminGetLoggerLevelResult): Sample[] {
  return Object.keys(r.loggerLevels)
    .sort()
    .map((logger) => sample('avax_node_log_level', { logger, level: r.loggerLevels[logger]!.logLevel }, 1));
}

export const adminGetLoggerLevelCall = rpcCall({ method: 'admin.getLoggerLevel', endpoint: ENDPOINTS.admin, result: AdminGetLoggerLevelResult, absent: 'the Admin API is off unless --api-admin-enabled=true' });

export const adminLogger: CollectorOf<'admin-logger'> = defineCollector({
  name: 'admin-logger',
  description: 'admin.getLoggerLevel: the log level of every logger of the node (opt-in; the Admin API is usually disabled).',
  needs: 'Admin API (--api-admin-enabled=true on the node; disabled = 404, no series and no failure)',
  interval: 300,
  enabled: false,
  nodeSpecific: true,
  metrics: [gauge('avax_node_log_level', 'The level a logger of the node writes at (admin.getLoggerLevel logLevel: VERBO, DEBUG, TRACE, INFO, WARN, ERROR, FATAL, OFF); value 1.', ['logger', 'level'])],
  ...oneCall(adminGetLoggerLevelCall, (v) => ({ samples: toSamples(v) })),
});
