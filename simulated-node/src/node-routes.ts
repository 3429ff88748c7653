// The simulated node's URL routes (api/server, chains' handlers): which path serves which API,
// per scenario (the active scenario's `routes` hooks: route groups answering 404, the Admin API;
// chain routes answer 503 while the node is not bootstrapped).
// Part of the simulated avalanchego node, an independent oracle ON PURPOSE: this package shares no
// code with the exporter (src/) and has its own CB58, JSON-RPC envelope and constants, so
// that a bug in the exporter's decoding cannot hide behind the same bug here. Do not "fix" this
// duplication (test/sim/independence.test.ts fails on any import from outside this package).
import type http from 'node:http';
import { adminService } from './admin-service.js';
import { avmService } from './avm-service.js';
import { ethPrecheck, handleEthBody } from './c-chain-eth-rpc.js';
import { extMetricsText } from './ext-metrics.js';
import { goJson } from './go-format.js';
import type { HealthReport } from './health-checks.js';
import { healthService } from './health-service.js';
import { NOT_FOUND, httpError, rpcEndpoint } from './http-transport.js';
import { indexService, type IndexKind } from './index-service.js';
import { infoService } from './info-service.js';
import type { HttpAnswer } from './json-rpc-envelope.js';
import { C_CHAIN_ID, P_CHAIN_ID, X_CHAIN_ID, type ChainAlias } from './mainnet-constants.js';
import type { SimInstance } from './node-instance.js';
import { platformService } from './platform-service.js';
import type { RouteGroup } from './scenarios/scenario.js';

/** GET on a health route: 200 when healthy, else 503, Go-escaped JSON. */
function healthGet(report: HealthReport): HttpAnswer {
  return {
    status: report.healthy ? 200 : 503,
    headers: { 'Content-Type': 'application/json' },
    body: goJson(report) + '\n',
    ok: true,
  };
}

/** The answer of node `inst` to a request for `path` (without the /node/<i> prefix). */
export function route(inst: SimInstance, req: http.IncomingMessage, path: string, query: URLSearchParams, body: string): HttpAnswer {
  const m = inst.model;
  const routes = m.active.routes;
  const hidden = (group: RouteGroup): boolean => routes?.notFound?.includes(group) === true;
  const chainRoute = (chain: ChainAlias, fn: () => HttpAnswer): HttpAnswer => {
    void chain;
    if (!m.bootstrapped) return httpError(503, 'API call rejected because chain is not done bootstrapping');
    return fn();
  };

  switch (path) {
    case '/ext/info':
      return rpcEndpoint(req, body, { info: infoService(m) });
    case '/ext/health':
      if (hidden('health')) return NOT_FOUND;
      if (req.method === 'GET') return healthGet(inst.healthReport(query.getAll('tag')));
      return rpcEndpoint(req, body, { health: healthService(inst) });
    case '/ext/health/health':
      if (hidden('health')) return NOT_FOUND;
      return healthGet(inst.healthReport(query.getAll('tag')));
    case '/ext/health/readiness':
      if (hidden('health')) return NOT_FOUND;
      return healthGet(inst.readiness());
    case '/ext/health/liveness':
      if (hidden('health')) return NOT_FOUND;
      return healthGet(inst.liveness());
    case '/ext/metrics':
      // Not served on public API servers, off with --api-metrics-enabled=false: 404.
      if (hidden('metrics')) return NOT_FOUND;
      return { status: 200, headers: { 'Content-Type': 'text/plain; version=0.0.4; charset=utf-8' }, body: extMetricsText(m, m.active.extMetrics?.naming ?? m.profile.metrics.naming), ok: true };
    case '/ext/bc/P':
    case '/ext/P':
    case '/ext/platform':
    case '/ext/bc/platform':
    case `/ext/bc/${P_CHAIN_ID}`:
      return chainRoute('P', () => rpcEndpoint(req, body, { platform: platformService(m) }));
    case '/ext/bc/X':
    case `/ext/bc/${X_CHAIN_ID}`:
      return chainRoute('X', () => rpcEndpoint(req, body, { avm: avmService(m) }));
    case '/ext/bc/C/rpc':
    case `/ext/bc/${C_CHAIN_ID}/rpc`:
      return chainRoute('C', () => {
        const rejected = ethPrecheck(req.method ?? 'GET', req.headers['content-type'], body.length);
        return rejected ?? handleEthBody(m, body);
      });
    default:
      break;
  }
  const idx = /^\/ext\/index\/([PCX])\/(block|tx|vtx)$/.exec(path);
  if (idx) {
    const chain = idx[1] as ChainAlias;
    const kind = idx[2] as IndexKind;
    if (kind !== 'block' && chain !== 'X') return NOT_FOUND;
    if (hidden('index')) return NOT_FOUND;
    return rpcEndpoint(req, body, { index: indexService(m, chain, kind) });
  }
  // /ext/admin is disabled (the default) unless a scenario enables it; everything else is unknown.
  if (path === '/ext/admin' && routes?.admin) return rpcEndpoint(req, body, { admin: adminService() });
  return NOT_FOUND;
}
