/**
 * The exporter's call declarations (src/collectors/index.ts CALLS) against every answer recorded from
 * the real v1.15.0, v1.14.2, v1.12.2 and v1.11.7 nodes (test/fixtures/real-node-v<version>/): each answer of a
 * request a declared call makes decodes with that call's schema, each error answer of one is exactly a
 * declared normal state of it (listed below: nothing else is normal), and the way each version says
 * "no such method" is recognised as `absent` by every call that declares it.
 */
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CALLS } from '../../src/collectors/index.js';
import { normalStateOf, type Call } from '../../src/node-client/call.js';
import { HttpError, RpcError } from '../../src/node-client/errors.js';
import { RECORDED_VERSIONS, recordedExchange, recordedNodeDir, unknownMethodBody, type RecordedVersion } from '../helpers/recorded-node.js';

/**
 * Every recorded error answer of a request a declared call makes, and the normal state it is
 * (collector: state). An unknown index path answers the plain 404 of a disabled index.
 */
const SHARED = {
  'err-index-unknown-kind.json': 'index-last-accepted: notEnabled',
  'err-wrong-param-isBootstrapped.json': 'info-is-bootstrapped: unknownChain',
  'index.getLastAccepted-X-tx.json': 'index-last-accepted: empty',
  'index.getLastAccepted-X-vtx.json': 'index-last-accepted: empty',
};
const ERROR_ANSWERS: Record<RecordedVersion, Record<string, string>> = {
  // Recorded before any transaction: no index holds a container yet.
  '1.15.0': {
    'index.getLastAccepted-C-block.json': 'index-last-accepted: empty',
    'index.getLastAccepted-P-block.json': 'index-last-accepted: empty',
    'index.getLastAccepted-X-block.json': 'index-last-accepted: empty',
    'index.getLastAccepted-X-tx.json': 'index-last-accepted: empty',
    'index.getLastAccepted-X-vtx.json': 'index-last-accepted: empty',
  },
  '1.14.2': {
    ...SHARED,
    // `nodeIDs: ["not-a-node-id"]`, never sent: --validator.node-id only takes NodeIDs (a failure if it were).
    'err-wrong-param-type-getCurrentValidators.json': 'platform-validators: failure',
  },
  '1.12.2': SHARED,
  '1.11.7': {
    ...SHARED,
    'info.upgrades.json': 'info-upgrades: absent',
    'platform.getFeeState.json': 'network-economics: absent',
    'platform.getValidatorFeeState.json': 'platform-validator-fee: absent',
  },
};

/** The declared calls that make this recorded request (the request as sent: path, method, params). */
function callsMaking(http: string, method: string, path: string, params: Record<string, unknown>): { collector: string; call: Call }[] {
  return CALLS.filter(({ call }) => {
    if (call.kind === 'rpc') return http === 'POST' && call.method === method && path.startsWith(call.pathPrefix) && (!call.recognise || call.recognise(params));
    return `${http} ${path}` === call.method;
  });
}

function json(text: string | null): any {
  try {
    return text === null ? undefined : JSON.parse(text);
  } catch {
    return undefined; // err-malformed-json-*, plain-text 404s
  }
}

function exchanges(version: RecordedVersion) {
  return readdirSync(recordedNodeDir(version))
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => {
      const ex = recordedExchange(f, version);
      const call = json(ex.request.body) as { method: string; params?: Record<string, unknown> } | undefined;
      const method = call?.method ?? `GET ${ex.request.path}`;
      return { f, ex, method, calls: callsMaking(ex.request.method, call?.method ?? '', ex.request.path, call?.params ?? {}) };
    });
}

describe.each(RECORDED_VERSIONS)('recorded answers of v%s', (version) => {
  it('default: every answer of a declared call decodes with its schema; every error answer is a declared normal state, as listed', () => {
    const errors: Record<string, string> = {};
    let decoded = 0;
    for (const { f, ex, method, calls } of exchanges(version)) {
      for (const { collector, call } of calls) {
        if (call.kind === 'text') continue;
        const body = json(ex.body) as { result?: unknown; error?: { code: number; message: string } } | undefined;
        if (body !== undefined && (call.kind === 'health' || body.result !== undefined)) {
          const r = call.result.safeParse(call.kind === 'health' ? body : body.result);
          expect(r.success, `${f} (${collector}): ${r.success ? '' : JSON.stringify(r.error.issues.slice(0, 3))}`).toBe(true);
          decoded++;
          continue;
        }
        const err = body?.error ? new RpcError(method, body.error.code, body.error.message) : new HttpError(method, ex.status, ex.body);
        errors[f] = `${collector}: ${normalStateOf(call, err) ?? 'failure'}`;
      }
    }
    expect(errors).toEqual(ERROR_ANSWERS[version]);
    expect(decoded).toBeGreaterThan(20);
  });
});

/** The versions whose recording asked a method the node lacks (v1.15.0's asked none: no error answer of the kind). */
const LACKING_RECORDED = RECORDED_VERSIONS.filter((v) => v !== '1.15.0');

describe.each(LACKING_RECORDED)('recorded answers of v%s to a method it lacks', (version) => {

  it("default: this version's answer to a method it lacks is recognised as `absent` by every call that declares it", () => {
    const absentCalls = CALLS.filter(({ call }) => call.kind === 'rpc' && 'absent' in call.normal);
    expect(absentCalls.length).toBeGreaterThan(5);
    for (const { collector, call } of absentCalls) {
      const body = JSON.parse(unknownMethodBody(version, call.method)) as { error: { code: number; message: string } };
      expect(normalStateOf(call, new RpcError(call.method, body.error.code, body.error.message)), `${collector} ${call.method}`).toBe('absent');
    }
  });

  it('default: the helper answers a lacking method with the bytes the node sent for each method it lacked', () => {
    const lacked = exchanges(version).filter(({ ex }) => ex.body.includes("can't find method"));
    for (const { f, ex, method } of lacked) expect(unknownMethodBody(version, method), f).toBe(ex.body);
    // v1.11.7 lacks the Etna methods and info.upgrades; the others only the unknown method asked on purpose.
    expect(lacked.map((l) => l.method).sort()).toEqual(
      version === '1.11.7'
        ? ['info.noSuchMethod', 'info.upgrades', 'platform.getFeeConfig', 'platform.getFeeState', 'platform.getL1Validator', 'platform.getProposedHeight', 'platform.getValidatorFeeConfig', 'platform.getValidatorFeeState']
        : ['info.noSuchMethod'],
    );
  });
});
