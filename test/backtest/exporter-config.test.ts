// Issue 43: the backtest's fleet configuration (backtest/src/exporter-config.ts) through the exporter's own loader:
// a fleet whose nodes run different L1s and watch each other's IDs expects each ID where it validates (the own
// ID on the primary network and its own L1, a vantage ID on the primary network), never the cross product; and
// the library holds a healthy timeline that combines vantages, L1s and mixed versions.
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exporterConfigYaml, targetName, watchedBy } from '../../backtest/src/exporter-config.js';
import { faultsOf, parseTimeline } from '../../backtest/src/timeline.js';
import { COLLECTORS } from '../../src/collectors/index.js';
import { expectedSubnets } from '../../src/collectors/platform-validators.js';
import { loadConfig } from '../../src/config/load.js';
import { resolveTargets } from '../../src/config/targets.js';

const PRIMARY = '11111111111111111111111111111111LpoYY';
const LIBRARY = resolve(import.meta.dirname, '../../backtest/timelines');
// Six node IDs and L1 subnet IDs in the right formats (the simulator derives its own from the seed).
const NODE_IDS = ['7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg', 'MFrZFVCXPv5iCn6M9K6XduxGTYp891xXZ', 'NFBbbJ4qCmNaCzeW7sxErhvWqvEQMnYcN', 'GWPcbFJZFfZreETSoWjPimr846mXEKCtu', 'P7oB2McjBGgW2NXXWVYjV8JEDFoW9xDE5', 'C6YjPSfVCoE9msKXoyVzvg3qQasxTJaEA'].map((s) => `NodeID-${s}`);
const L1S = ['BKBZ6xXTnT86B4L5fp8rvtcmNSpvtNz8En9jG61ywV2uWyeHy', '2fmwRPMY81TucCvuoC1SJPLpUEDFZmjJ2iXRxZVJXCzYS4ck9B', '2uEVuw7WkuHFPfBy7ytzj3HunEB6YQSxSe7TCzrmUUWRDFwaft', '2XXT73156cWSLRdLoZ9KqS7iWfALCBVEed6s2ozLPP4LgB2cmn', 'gFkN164b2X6T8iyQCMPmqHfkbcbWNqKgMD4pTHfJZSJHyTT2v', '2WwuvKi7DvvPcAZJTyqbGe5C5SMk6Ppbu6cXnMemej4aVTjqn3'];

describe('the backtest fleet watching each other and its own L1s (issue 43)', () => {
  it('behavior: each target expects its own ID on the primary network and its L1, its vantage IDs on the primary network only', () => {
    const yaml = exporterConfigYaml({ nodeIds: NODE_IDS, l1SubnetIds: L1S }, { intervalMs: 60_000, reference: false, vantages: 2, adminLogger: false, watchL1: true });
    const { config } = loadConfig({ argv: ['--config.file', '/fleet.yaml'], env: {}, readFile: () => yaml });
    const targets = resolveTargets(config, COLLECTORS);
    expect(targets.map((t) => t.spec.name)).toEqual(NODE_IDS.map((_, i) => targetName(i)));
    targets.forEach((t, i) => {
      const pairs = [...expectedSubnets(t.spec, NODE_IDS[i])].flatMap(([id, subnets]) => [...subnets].map((s) => `${id}@${s}`)).sort();
      const vantages = watchedBy(i, NODE_IDS.length, 2).map((j) => `${NODE_IDS[j]}@${PRIMARY}`);
      expect(pairs, t.spec.name).toEqual([`${NODE_IDS[i]}@${PRIMARY}`, `${NODE_IDS[i]}@${L1S[i]}`, ...vantages].sort());
      // the platform-validators collector asks every watched ID on this L1 too: expected_active 0 there
      expect(t.spec.subnets).toEqual([L1S[i]]);
    });
  });

  it('default: the library has a healthy timeline of vantages, own L1s and mixed versions', () => {
    const combined = readdirSync(LIBRARY)
      .filter((f) => f.endsWith('.yaml'))
      .map((f) => parseTimeline(readFileSync(resolve(LIBRARY, f), 'utf8'), f))
      .filter((t) => faultsOf(t).length === 0 && t.fleet.vantages >= 2 && t.fleet.watchL1 && new Set(t.fleet.versions ?? []).size >= 3);
    expect(combined.map((t) => t.name)).toContain('fleet-vantages-l1');
  });
});
