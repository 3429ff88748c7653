// The simulator's control endpoint (not part of avalanchego): GET /sim/state, GET /sim/scenarios,
// POST /sim/scenario {"scenario","node"}, POST /sim/restart {"node","healthFirstRunMs"}. Served on
// the control port (up in every scenario) and on the node port while it is up.
// Part of the simulated avalanchego node, an independent oracle ON PURPOSE: this package shares no
// code with the exporter (src/) and has its own CB58, JSON-RPC envelope and constants, so
// that a bug in the exporter's decoding cannot hide behind the same bug here. Do not "fix" this
// duplication (test/sim/independence.test.ts fails on any import from outside this package).
import type http from 'node:http';
import { readBody } from './http-transport.js';
import type { SimInstance } from './node-instance.js';
import { SCENARIOS, SCENARIO_HELP, isScenarioName, type ScenarioName } from './scenarios/index.js';

/** setTimeout's limit (2^31 - 1 ms); longer delays would fire at once. */
export const MAX_TIMER_MS = 2_147_483_647;

export interface ControlContext {
  instances: readonly SimInstance[];
  nodeBase: string;
  controlBase: string;
  listening: () => boolean;
  validators: number;
  setScenario: (name: ScenarioName, node?: number) => Promise<void>;
  restart: (node?: number, opts?: { healthFirstRunMs?: number }) => Promise<void>;
}

/** GET /sim/state */
export function simState(c: ControlContext): Record<string, unknown> {
  return {
    url: c.nodeBase,
    controlUrl: c.controlBase,
    listening: c.listening(),
    scenarios: SCENARIOS,
    nodes: c.instances.map((i) => ({
      node: i.index,
      url: i.index === 0 ? c.nodeBase : `${c.nodeBase}/node/${i.index}`,
      nodeId: i.model.nodeId,
      scenario: i.model.scenario,
      heights: { P: i.model.height('P'), X: i.model.height('X'), C: i.model.height('C') },
      validators: c.validators,
      peers: i.model.peers().length,
      l1SubnetId: i.model.l1SubnetId,
      version: i.model.profile.version,
      healthRun: !i.healthPending,
      sybilProtection: i.model.sybilProtection,
    })),
  };
}

function validNode(node: unknown, n: number): boolean {
  return node === undefined || node === null || (typeof node === 'number' && Number.isInteger(node) && node >= 0 && node < n);
}

export async function handleControl(c: ControlContext, req: http.IncomingMessage, res: http.ServerResponse, path: string): Promise<void> {
  const nNodes = c.instances.length;
  const json = (status: number, v: unknown): void => {
    if (res.destroyed || res.writableEnded) return;
    res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8' });
    res.end(JSON.stringify(v) + '\n');
  };
  if (path === '/sim/state' && (req.method === 'GET' || req.method === 'HEAD')) return json(200, simState(c));
  if (path === '/sim/scenarios' && req.method === 'GET') return json(200, { scenarios: SCENARIO_HELP });
  if (path === '/sim/scenario') {
    if (req.method === 'GET') return json(200, { scenarios: c.instances.map((i) => i.model.scenario) });
    if (req.method !== 'POST') return json(405, { error: 'use POST /sim/scenario with {"scenario":"<name>","node":<i>}' });
    const body = await readBody(req);
    let parsed: unknown;
    try {
      parsed = JSON.parse(body ?? '');
    } catch {
      return json(400, { error: 'body must be JSON like {"scenario":"healthy","node":0}', valid: SCENARIOS });
    }
    const p = (parsed ?? {}) as Record<string, unknown>;
    const name = p['scenario'];
    if (!isScenarioName(name)) {
      return json(400, {
        error: `unknown scenario ${JSON.stringify(name)}; valid scenarios: ${SCENARIOS.join(', ')}`,
        valid: SCENARIOS,
      });
    }
    const node = p['node'];
    if (!validNode(node, nNodes)) return json(400, { error: `node must be an integer in [0,${nNodes - 1}]` });
    try {
      await c.setScenario(name, typeof node === 'number' ? node : undefined);
    } catch (e) {
      return json(500, { error: e instanceof Error ? e.message : String(e) });
    }
    return json(200, { scenario: name, nodes: typeof node === 'number' ? [node] : c.instances.map((i) => i.index) });
  }
  if (path === '/sim/restart') {
    if (req.method !== 'POST') return json(405, { error: 'use POST /sim/restart with {"node":<i>} (node optional: all nodes)' });
    const body = (await readBody(req)) ?? '';
    let parsed: unknown = {};
    if (body.trim() !== '') {
      try {
        parsed = JSON.parse(body);
      } catch {
        return json(400, { error: 'body must be empty or JSON like {"node":0}' });
      }
    }
    const p = (parsed ?? {}) as Record<string, unknown>;
    const node = p['node'];
    if (!validNode(node, nNodes)) return json(400, { error: `node must be an integer in [0,${nNodes - 1}]` });
    const firstRun = p['healthFirstRunMs'];
    if (firstRun !== undefined && firstRun !== null && !(typeof firstRun === 'number' && Number.isFinite(firstRun) && firstRun >= 0 && firstRun <= MAX_TIMER_MS)) {
      return json(400, { error: `healthFirstRunMs must be a number of milliseconds in [0,${MAX_TIMER_MS}]` });
    }
    try {
      await c.restart(typeof node === 'number' ? node : undefined, typeof firstRun === 'number' ? { healthFirstRunMs: firstRun } : {});
    } catch (e) {
      return json(500, { error: e instanceof Error ? e.message : String(e) });
    }
    return json(200, { restarted: typeof node === 'number' ? [node] : c.instances.map((i) => i.index) });
  }
  return json(404, { error: 'not found; use POST /sim/scenario, POST /sim/restart or GET /sim/state' });
}
