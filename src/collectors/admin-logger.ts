import { sample, type Sample } from '../metrics/model.js';
import { ENDPOINTS, isNotFound } from '../node-client/index.js';
import { AdminGetLoggerLevelResult } from '../schemas/admin.js';
import { defineCollector } from './define.js';
import { onChange, settle } from './support.js';

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

export const adminLogger = defineCollector({
  name: 'admin-logger',
  description: 'admin.getLoggerLevel: the log level of every logger of the node (opt-in; the Admin API is usually disabled).',
  needs: 'Admin API (--api-admin-enabled=true on the node; disabled = 404, no series and no failure)',
  interval: 300,
  enabled: false,
  nodeSpecific: true,
  metrics: [
    { name: 'avax_node_log_level', type: 'gauge', labels: ['logger', 'level'], help: 'The level a logger of the node writes at (admin.getLoggerLevel logLevel: VERBO, DEBUG, TRACE, INFO, WARN, ERROR, FATAL, OFF); value 1.' },
  ],
  calls: [{ method: 'admin.getLoggerLevel' }],
  async collect(ctx) {
    const r = await settle(ctx.client.rpc(ENDPOINTS.admin, 'admin.getLoggerLevel', {}, AdminGetLoggerLevelResult, { signal: ctx.signal, normal: isNotFound }));
    if (!r.ok) {
      if (isNotFound(r.error)) {
        onChange(ctx, 'available', 'no', () => ctx.log.info('the Admin API is not enabled on this node (404): no log level series'));
        return { samples: [], errors: [] };
      }
      return { samples: [], errors: [r.error] };
    }
    onChange(ctx, 'available', 'yes', () => ctx.log.info('the Admin API answers: log levels collected'));
    return { samples: toSamples(r.value), errors: [] };
  },
});
