import { ENDPOINTS, rpcCall } from '../node-client/index.js';
import { InfoGetNodeIPResult } from '../schemas/info.js';
import { defineCollector, oneCall, type CollectorOf } from './define.js';

/**
 * info.getNodeIP (issue 14 item 4): the ip:port the node advertises to its peers, published for
 * node-info, which puts it in the `ip` label of avax_node_info (AvalancheValidatorIpChanged compares
 * the addresses of the last hour in Prometheus). A collector of its own so that its one request runs
 * every 5 minutes, where the request budget has room; --no-collector.node-ip leaves the label empty.
 * Node-specific: absent on public API servers (404 or no such method: a normal state, ip '').
 */
export interface NodeIpValue {
  /** ip:port; '' when the node does not expose info.getNodeIP. */
  readonly ip: string;
}

export const infoGetNodeIPCall = rpcCall({ method: 'info.getNodeIP', endpoint: ENDPOINTS.info, result: InfoGetNodeIPResult, absent: 'public API servers do not expose it: the ip label is empty' });

export const nodeIp: CollectorOf<'node-ip', NodeIpValue> = defineCollector({
  name: 'node-ip',
  description: 'info.getNodeIP: the advertised ip:port, the ip label of avax_node_info (off: the label is empty).',
  needs: 'Info API (node-specific: absent on public servers, then ip is empty and nothing fails)',
  interval: 300,
  nodeSpecific: true,
  // No family of its own: the address is a label of node-info's avax_node_info.
  metrics: [],
  // A failure publishes nothing (nothing stale: the label is empty until the address is known again).
  ...oneCall(
    infoGetNodeIPCall,
    ({ ip }, ctx) => {
      ctx.logOnChange('ip', ip, () => ctx.log.info({ ip }, 'advertised IP (info.getNodeIP)'));
      return { value: { ip }, samples: [] };
    },
    { ip: '' },
  ),
});
