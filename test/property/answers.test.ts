/**
 * Generated and mutated node answers (every fixture, with fields dropped, retyped, renamed,
 * duplicated, huge, negative, NaN-like, very long, non-ASCII, with quotes, backslashes and
 * newlines) through every schema and every collector's pure toSamples.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { avmGetHeightCall, ethBlockNumberCall, platformGetHeightCall, platformGetTimestampCall, toSamples as chainHeightSamples } from '../../src/collectors/chain-height.js';
import { getHealthCall, toSamples as healthSamples } from '../../src/collectors/health.js';
import { indexGetLastAcceptedCall, toSamples as indexSamples, type IndexOutcome } from '../../src/collectors/index-last-accepted.js';
import { infoIsBootstrappedCall, toSamples as bootstrappedSamples } from '../../src/collectors/info-is-bootstrapped.js';
import { infoPeersCall, toSamples as peersSamples } from '../../src/collectors/info-peers.js';
import { infoUptimeCall, toSamples as uptimeSamples } from '../../src/collectors/info-uptime.js';
import { infoGetNetworkIDCall, infoGetNetworkNameCall, infoGetNodeIDCall, infoGetNodeVersionCall, toSamples as nodeInfoSamples, vmSamples } from '../../src/collectors/node-info.js';
import { getPrimaryValidatorsCall, toSamples as validatorsFullSamples } from '../../src/collectors/platform-validators-full.js';
import { heliconFrom, infoUpgradesCall } from '../../src/collectors/info-upgrades.js';
import { getWatchedValidatorsCall, toSamples as validatorsSamples } from '../../src/collectors/platform-validators.js';
import { familyOf } from '../../src/metrics/descriptors.js';
import type { Sample } from '../../src/model.js';
import type { AnswerSchema } from '../../src/node-client/call.js';
import { PRIMARY_NETWORK_ID } from '../../src/avalanche.js';
import { InfoPeersResult } from '../../src/schemas/info.js';
import { PlatformGetCurrentValidatorsResult } from '../../src/schemas/platform.js';
import { fixtureMethods, result as fixtureResult, schemaOfFixture } from '../fixtures/load.js';
import { cb58Id } from '../helpers/fixture-node.js';
import { mutatedAnswer, nastyString, renderRoundTrip } from '../helpers/answer-mutations.js';

const NUM_RUNS = 200;
const FIXTURE_NOW_MS = 1778750505_000;

/** safeParse never throws; undefined when the answer is rejected. */
function parse<T>(schema: AnswerSchema<T>, answer: unknown): T | undefined {
  const r = schema.safeParse(answer);
  return r.success ? r.data : undefined;
}

/** Each sample belongs to `collector` and has exactly its descriptor's labels (minus target). */
function expectContract(collector: string, samples: readonly Sample[]): void {
  for (const s of samples) {
    const d = familyOf(s.name);
    expect(d?.collector, s.name).toBe(collector);
    const derived = s.name !== d!.name;
    const want = d!.labels.filter((l) => l !== 'target' && !(derived && l === 'quantile')).sort();
    expect(Object.keys(s.labels).sort(), s.name).toEqual(want);
    expect(typeof s.value).toBe('number');
  }
}

/** Counts the runs in which toSamples ran on an accepted answer (a property that never gets there proves nothing). */
function tally() {
  let runs = 0;
  let exercised = 0;
  return {
    run(ok: boolean) {
      runs++;
      if (ok) exercised++;
    },
    check(min = 0.2) {
      expect(exercised / runs, `${exercised} of ${runs} runs reached toSamples`).toBeGreaterThan(min);
    },
  };
}

const check = (collector: string, samples: Sample[]) => {
  expectContract(collector, samples);
  renderRoundTrip(samples);
};

// Every fixture folder read with the schema the exporter reads it with (the declared calls': a lean
// reader or zod); that every fixture is accepted unmutated is test/schemas/fixtures-all.test.ts.
describe('property: schemas', () => {
  it.each(fixtureMethods())('%s: a mutated answer is accepted or rejected, never throws', (method) => {
    const schema = schemaOfFixture(method)!;
    fc.assert(
      fc.property(mutatedAnswer(method), (answer) => {
        const r = schema.safeParse(answer);
        expect(typeof r.success).toBe('boolean');
      }),
      { numRuns: NUM_RUNS },
    );
  });
});

/**
 * The property of one collector: over `answers`, `run` parses them, runs toSamples on what is accepted through
 * check() and says whether it got there; at least 20 % of the runs must (tally).
 */
function collectorProperty<A>(answers: fc.Arbitrary<A>, run: (a: A) => boolean): void {
  const t = tally();
  fc.assert(fc.property(answers, (a) => t.run(run(a))), { numRuns: NUM_RUNS });
  t.check();
}

describe('property: every collector toSamples on accepted mutated answers renders a valid, escaped exposition', () => {
  it('node-info', () =>
    collectorProperty(fc.tuple(mutatedAnswer('info.getNodeID'), mutatedAnswer('info.getNodeVersion'), mutatedAnswer('info.getNetworkID'), mutatedAnswer('info.getNetworkName')), ([id, version, networkId, networkName]) => {
      const v = parse(infoGetNodeVersionCall.result, version);
      const i = parse(infoGetNodeIDCall.result, id);
      const n = parse(infoGetNetworkIDCall.result, networkId);
      const nn = parse(infoGetNetworkNameCall.result, networkName);
      if (!v) return false;
      check('node-info', vmSamples(v));
      if (i && n && nn) check('node-info', nodeInfoSamples({ nodeId: i.nodeID, version: v, networkId: n, networkName: nn }));
      return true;
    }));

  it('health', () =>
    collectorProperty(fc.tuple(mutatedAnswer('health.health'), mutatedAnswer('health.readiness'), mutatedAnswer('health.liveness')), ([h, r, l]) => {
      const v = { health: parse(getHealthCall.result, h), readiness: parse(getHealthCall.result, r), liveness: parse(getHealthCall.result, l) };
      check('health', healthSamples(v));
      return v.health !== undefined || v.readiness !== undefined;
    }));

  it('info-is-bootstrapped (chain labels: configured aliases, here any string)', () =>
    collectorProperty(fc.uniqueArray(fc.tuple(nastyString, mutatedAnswer('info.isBootstrapped')), { selector: ([c]) => c, maxLength: 5 }), (rows) => {
      const ok = rows.flatMap(([chain, a]) => {
        const v = parse(infoIsBootstrappedCall.result, a);
        return v ? [{ chain, isBootstrapped: v.isBootstrapped }] : [];
      });
      check('info-is-bootstrapped', bootstrappedSamples(ok));
      return ok.length > 0;
    }));

  it('info-peers (per-peer on and off)', () =>
    collectorProperty(fc.tuple(mutatedAnswer('info.peers'), fc.boolean(), fc.integer({ min: 1, max: 10_000 })), ([answer, perPeer, silence]) => {
      const v = parse(infoPeersCall.result, answer);
      if (v) check('info-peers', peersSamples(v, { nowMs: FIXTURE_NOW_MS, silenceSeconds: silence, perPeer }));
      return v !== undefined;
    }));

  it('info-uptime', () =>
    collectorProperty(mutatedAnswer('info.uptime'), (answer) => {
      const v = parse(infoUptimeCall.result, answer);
      if (v) check('info-uptime', uptimeSamples(v));
      return v !== undefined;
    }));

  it('platform-validators (watched IDs present and absent, Helicon known, unscheduled or unknown)', () => {
    const absent = `NodeID-${'1'.repeat(10)}absent`;
    collectorProperty(fc.tuple(mutatedAnswer('platform.getCurrentValidators'), mutatedAnswer('info.upgrades'), fc.boolean()), ([answer, upgrades, l1]) => {
      const v = parse(getWatchedValidatorsCall.result, answer);
      const u = parse(infoUpgradesCall.result, upgrades);
      if (!v) return false;
      const ids = v.validators.map((x) => x.nodeID);
      const watched = [...ids.slice(0, 2), ...ids.slice(0, 1), absent];
      const subnet = l1 ? cb58Id('property-l1') : PRIMARY_NETWORK_ID;
      check('platform-validators', validatorsSamples([{ subnet, watched, validators: v.validators }], { heliconTime: u ? heliconFrom(u) : undefined }));
      return true;
    });
  });

  it('platform-validators-full (primary network and another subnet)', () =>
    collectorProperty(mutatedAnswer('platform.getCurrentValidators'), (a) => {
      const v = parse(getPrimaryValidatorsCall.result, a);
      if (v) check('platform-validators-full', validatorsFullSamples(v.validators));
      return v !== undefined;
    }));

  it('chain-height', () =>
    collectorProperty(fc.tuple(mutatedAnswer('platform.getHeight'), mutatedAnswer('eth_blockNumber'), mutatedAnswer('avm.getHeight'), mutatedAnswer('platform.getTimestamp')), ([p, c, x, ts]) => {
      const v = {
        p: parse(platformGetHeightCall.result, p)?.height,
        c: parse(ethBlockNumberCall.result, c),
        x: parse(avmGetHeightCall.result, x)?.height,
        pTimestamp: parse(platformGetTimestampCall.result, ts)?.timestamp,
      };
      check('chain-height', chainHeightSamples(v));
      return Object.values(v).some((y) => y !== undefined);
    }));

  it('index-last-accepted', () =>
    collectorProperty(fc.tuple(mutatedAnswer('index.getLastAccepted'), mutatedAnswer('index.getLastAccepted'), mutatedAnswer('index.getLastAccepted')), (answers) => {
      const chains = ['P', 'C', 'X'] as const;
      const outcomes: IndexOutcome[] = answers.map((a, i) => {
        const last = parse(indexGetLastAcceptedCall.result, a);
        return last ? { chain: chains[i]!, kind: 'block', last } : { chain: chains[i]!, kind: 'block', unavailable: i % 2 ? 'empty' : 'not-enabled' };
      });
      check('index-last-accepted', indexSamples(outcomes));
      return outcomes.some((o) => 'last' in o);
    }));
});

describe('regressions found by these properties (fixed examples)', () => {
  it('a megabyte-long ID is rejected at once (base58 decoding is quadratic: 70,000 characters took 5 s)', () => {
    const started = performance.now();
    const long = `NodeID-${'x'.repeat(1_000_000)}`;
    // The zod schemas, and the lean readers the calls read these answers with.
    for (const schema of [PlatformGetCurrentValidatorsResult, getWatchedValidatorsCall.result]) expect(schema.safeParse({ validators: [{ nodeID: long, txID: long.slice(7) }] }).success).toBe(false);
    for (const schema of [InfoPeersResult, infoPeersCall.result]) expect(schema.safeParse({ numPeers: '1', peers: [{ nodeID: long, version: 'v', trackedSubnets: [long.slice(7)] }] }).success).toBe(false);
    // Quadratic decoding of this string would take minutes; a generous bound still catches it.
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('a peer listed twice gives one per-peer series (a duplicate series makes a scraper reject the exposition)', () => {
    const answer = fixtureResult('info.peers', 'default') as { peers: unknown[] };
    answer.peers = [...answer.peers, ...answer.peers];
    const v = InfoPeersResult.parse(answer);
    const samples = peersSamples(v, { nowMs: FIXTURE_NOW_MS, silenceSeconds: 60, perPeer: true });
    renderRoundTrip(samples);
    expect(samples.filter((s) => s.name === 'avax_peer_info')).toHaveLength(new Set(v.peers.map((p) => p.nodeID)).size);
    const single = peersSamples(InfoPeersResult.parse(fixtureResult('info.peers', 'default')), { nowMs: FIXTURE_NOW_MS, silenceSeconds: 60, perPeer: true });
    expect(samples).toEqual(single);
  });

  it('label values that differ only in lone surrogates ("\\ud800" vs "\\udfff" in JSON) give one well-formed series', () => {
    const text = renderRoundTrip(bootstrappedSamples([{ chain: 'a\ud800', isBootstrapped: true }, { chain: 'a\udfff', isBootstrapped: false }]));
    expect(text).toContain('avax_chain_bootstrapped{target="fault",chain="a\ufffd"} 1\n');
    expect(text.match(/avax_chain_bootstrapped\{/g)).toHaveLength(1);
  });
});
