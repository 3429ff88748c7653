import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { fileURLToPath } from 'node:url';
import bs58 from 'bs58';
import { SELF } from '../fixtures/ids.js';
import { result } from '../fixtures/load.js';
import { listening, startServer, type Listening } from './http-server.js';

export const PRIMARY = '11111111111111111111111111111111LpoYY';

/** GET /ext/metrics: the real v1.14.2 capture's lines of the families node-metrics reads (fixtures README). */
const EXT_METRICS = readFileSync(fileURLToPath(new URL('../fixtures/ext-metrics/default.txt', import.meta.url)), 'utf8');

/** A CB58 ID (32-byte payload + sha256 checksum) derived from a seed string. */
export function cb58Id(seed: string): string {
  const payload = createHash('sha256').update(seed).digest();
  const check = createHash('sha256').update(payload).digest().subarray(-4);
  return bs58.encode(Buffer.concat([payload, check]));
}

/** A fixture node; `stop()` refuses connections until `start()`. */
export interface FixtureNode extends Listening {
  requests: { method: string; path: string }[];
  /** Override the answer of a method (it sees the JSON-RPC params): return a body string and status, or undefined for the fixture. */
  override: Map<string, (params?: Record<string, unknown>) => { status: number; body: string; contentType?: string } | undefined>;
}

/**
 * A local HTTP server that answers like avalanchego (docs/avalanchego-wire.md) from the fixtures in
 * test/fixtures/<method>/default.json: JSON-RPC with HTTP 200, health GET 200/503, index routes.
 * `variants` picks another case for a method, e.g. { 'info.acps': 'open' }.
 */
export async function startFixtureNode(variants: Readonly<Record<string, string>> = {}): Promise<FixtureNode> {
  const requests: FixtureNode['requests'] = [];
  const override: FixtureNode['override'] = new Map();
  const handler = (req: IncomingMessage, res: ServerResponse, body: string) => {
    const path = (req.url ?? '/').split('?')[0]!;
    res.setHeader('node-id', SELF);
    const send = (status: number, text: string, type = 'application/json; charset=utf-8') => {
      res.writeHead(status, { 'content-type': type });
      res.end(text);
    };
    if (req.method === 'GET' && path === '/ext/metrics') {
      requests.push({ method: `GET ${path}`, path });
      const r = override.get(`GET ${path}`)?.();
      if (r) return send(r.status, r.body, r.contentType ?? 'text/plain; version=0.0.4; charset=utf-8');
      return send(200, EXT_METRICS, 'text/plain; version=0.0.4; charset=utf-8');
    }
    if (req.method === 'GET' && path.startsWith('/ext/health')) {
      const which = path === '/ext/health/readiness' ? 'health.readiness' : path === '/ext/health/liveness' ? 'health.liveness' : 'health.health';
      requests.push({ method: `GET ${path}`, path });
      const r = override.get(`GET ${path}`)?.();
      if (r) return send(r.status, r.body, r.contentType);
      const report = result(which, variants[which] ?? 'default') as { healthy: boolean };
      return send(report.healthy ? 200 : 503, `${JSON.stringify(report)}\n`, 'application/json');
    }
    if (req.method !== 'POST') return send(405, `rpc: POST method required, received ${req.method}`, 'text/plain; charset=utf-8');
    if (!String(req.headers['content-type'] ?? '').startsWith('application/json')) {
      return send(415, `rpc: unrecognized Content-Type: ${req.headers['content-type'] ?? ''}`, 'text/plain; charset=utf-8');
    }
    let call: { id: unknown; method: string; params?: Record<string, unknown> };
    try {
      call = JSON.parse(body);
    } catch {
      return send(200, JSON.stringify({ jsonrpc: '2.0', error: { code: -32700, message: 'bad json', data: null }, id: null }));
    }
    requests.push({ method: call.method, path });
    const o = override.get(call.method) ?? override.get(`${call.method} ${path}`);
    const r = o?.(call.params);
    if (r) return send(r.status, r.body.replace('"__ID__"', JSON.stringify(call.id)), r.contentType);
    const ok = (r: unknown) => send(200, `${JSON.stringify({ jsonrpc: '2.0', result: r, id: call.id })}\n`);
    const fail = (msg: string) => send(200, `${JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: msg, data: null }, id: call.id })}\n`);
    const idx = /^\/ext\/index\/([PCX])\/(block|tx|vtx)$/.exec(path);
    if (idx) {
      try {
        return ok(result('index.getLastAccepted', `${idx[1]}-${idx[2]}`));
      } catch {
        return fail('no containers have been accepted');
      }
    }
    const params = call.params ?? {};
    switch (call.method) {
      case 'info.isBootstrapped': {
        const chain = String(params['chain'] ?? '');
        if (!['P', 'X', 'C'].includes(chain)) return fail(`there is no chain with alias/ID '${chain}'`);
        return ok(result('info.isBootstrapped', variants['info.isBootstrapped'] ?? 'default'));
      }
      case 'platform.getCurrentValidators': {
        const subnet = params['subnetID'] as string | undefined;
        const ids = params['nodeIDs'] as string[] | undefined;
        if (subnet && subnet !== PRIMARY) {
          const l1 = result('platform.getCurrentValidators', 'l1') as { validators: { nodeID: string }[] };
          return ok({ validators: ids?.length ? l1.validators.filter((v) => ids.includes(v.nodeID)) : l1.validators });
        }
        if (ids?.length === 1) {
          const w = result('platform.getCurrentValidators', 'primary-watched') as { validators: { nodeID: string }[] };
          return ok({ validators: w.validators.filter((v) => v.nodeID === ids[0]) });
        }
        const full = result('platform.getCurrentValidators', 'primary-full') as { validators: { nodeID: string }[] };
        // The peers of info.peers/default.json that are validators (all but the last, which reports
        // observedUptime "0") are in the full list too, as on a real network.
        const peerIds = (result('info.peers', 'default') as { peers: { nodeID: string }[] }).peers.slice(0, -1).map((p) => p.nodeID);
        const all = [...full.validators, ...peerIds.map((nodeID) => ({ ...full.validators[1]!, nodeID }))];
        return ok({ validators: ids?.length ? all.filter((v) => ids.includes(v.nodeID)) : all });
      }
      default:
        try {
          return ok(result(call.method, variants[call.method] ?? 'default'));
        } catch {
          const [svc, m] = call.method.split('.');
          return fail(`rpc: can't find method "${svc}.${(m ?? '').charAt(0).toUpperCase()}${(m ?? '').slice(1)}"`);
        }
    }
  };
  return {
    ...listening(await startServer(handler)),
    requests,
    override,
  };
}
