// Sharding a fleet over exporter replicas (issue 17): replica k of N collects the targets whose name
// Prometheus's hashmod puts in shard k, and Prometheus, with the relabeling of
// examples/prometheus-sharded.yml, sends each /probe?target= scrape to that replica. The two must agree
// name for name: checked against a real Prometheus (its /api/v1/targets after relabeling).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { COLLECTORS } from '../../src/collectors/index.js';
import { startExporter } from '../../src/main.js';
import { memoryLogger } from '../helpers/log.js';
import { loadConfig } from '../../src/config/load.js';
import { inShard, prometheusHashmod } from '../../src/config/shard.js';
import { resolveTargets } from '../../src/config/targets.js';
import { onPath, startProgram, waitHttpOk, type Program } from '../e2e/helpers/programs.js';
import { freePort } from '../helpers/proc.js';

const ROOT = resolve(import.meta.dirname, '..', '..');
const PROMETHEUS = onPath('prometheus');
const CI = !['', '0', 'false'].includes((process.env['CI'] ?? '').toLowerCase());
const NAMES = Array.from({ length: 60 }, (_, i) => `node-${String(i).padStart(3, '0')}`);

const fleetYaml = (names: readonly string[]) => `targets:\n${names.map((n, i) => `  - { name: ${n}, url: "http://127.0.0.1:${9650 + i}" }`).join('\n')}\n`;
function shardTargets(names: readonly string[], total: number, index: number): string[] {
  const { config } = loadConfig({ argv: ['--config.file', 'fleet.yaml', '--shard.total', String(total), '--shard.index', String(index)], env: {}, readFile: () => fleetYaml(names) });
  return resolveTargets(config, COLLECTORS).map((t) => t.spec.name);
}

describe('shards: each replica takes its share of the same target list', () => {
  it('default: one shard (the default) collects every target', () => {
    expect(shardTargets(NAMES, 1, 0)).toEqual(NAMES);
  });

  it('behavior: the shards of 3 replicas are disjoint and together cover the fleet, each about a third', () => {
    const shards = [0, 1, 2].map((k) => shardTargets(NAMES, 3, k));
    expect(shards.flat().sort()).toEqual(NAMES);
    for (const s of shards) expect(s.length).toBeGreaterThan(NAMES.length / 6);
    for (const [k, s] of shards.entries()) for (const n of s) expect(prometheusHashmod(n, 3)).toBe(k);
  });

  it('error: a shard index outside 0..total-1 names the flag and the range', () => {
    expect(() => loadConfig({ argv: ['--shard.total', '2', '--shard.index', '2'], env: {} })).toThrow(/shard\.index.*from 0 to 1.*got 2/s);
  });

  it("error: /probe for a configured target of another shard names the replica that has it (404), an unknown name stays 400", async () => {
    const mine = shardTargets(NAMES, 3, 1);
    const other = NAMES.find((n) => !mine.includes(n))!;
    const { config } = loadConfig({ argv: ['--config.file', 'fleet.yaml', '--shard.total', '3', '--shard.index', '1', '--web.listen-address', '127.0.0.1:0'], env: {}, readFile: () => fleetYaml(NAMES) });
    const exp = await startExporter({ config, logger: memoryLogger('silent').logger, schedule: false });
    try {
      const r = await fetch(`${exp.url.replace(/\/metrics$/, '')}/probe?target=${other}`);
      expect(r.status).toBe(404);
      expect(await r.text()).toContain(`--shard.index ${prometheusHashmod(other, 3)} (of --shard.total 3), not by this one (--shard.index 1)`);
      expect((await fetch(`${exp.url.replace(/\/metrics$/, '')}/probe?target=nope`)).status).toBe(400);
      expect(exp.current().text.toString()).not.toContain(`target="${other}"`);
    } finally {
      await exp.stop();
    }
  });

  it('behavior: inShard with total 1 takes everything without hashing', () => {
    expect(inShard('anything', { total: 1, index: 0 })).toBe(true);
  });
});

describe.skipIf(!PROMETHEUS && !CI)('shards agree with a real Prometheus hashmod relabeling (examples/prometheus-sharded.yml)', () => {
  let prom: Program | undefined;
  let tmp = '';
  let base = '';

  beforeAll(async () => {
    if (!PROMETHEUS) throw new Error('prometheus is not on PATH (apt-get install prometheus); under CI this is a failure');
    tmp = mkdtempSync(join(tmpdir(), 'avax-shard-'));
    const example = YAML.parse(readFileSync(join(ROOT, 'examples', 'prometheus-sharded.yml'), 'utf8'));
    const probe = example.scrape_configs.find((j: { job_name: string }) => j.job_name === 'avalanche-probe');
    // The shipped job as it is (2 shards, the example's names), and the same rules over 60 names
    // and 3 shards. Nothing listens on the replicas' addresses: only the relabeling is looked at.
    const three = {
      ...probe,
      job_name: 'three-shards',
      static_configs: [{ targets: NAMES }],
      relabel_configs: [
        ...probe.relabel_configs.slice(0, 2),
        { ...probe.relabel_configs[2], modulus: 3 },
        ...[0, 1, 2].map((k) => ({ source_labels: ['__tmp_shard'], regex: String(k), target_label: '__address__', replacement: `127.0.0.1:${20000 + k}` })),
      ],
    };
    writeFileSync(join(tmp, 'prometheus.yml'), YAML.stringify({ global: { scrape_interval: '1h' }, scrape_configs: [probe, three] }));
    const port = await freePort();
    prom = startProgram('prometheus', PROMETHEUS, [`--config.file=${join(tmp, 'prometheus.yml')}`, `--storage.tsdb.path=${join(tmp, 'data')}`, `--web.listen-address=127.0.0.1:${port}`, '--log.level=warn'], tmp);
    base = `http://127.0.0.1:${port}`;
    await waitHttpOk(prom, `${base}/-/ready`, 20_000);
  }, 40_000);
  afterAll(async () => {
    await prom?.stop();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  /** target name → the port Prometheus scrapes it on, per job (bounded poll until discovery settles). */
  async function routes(job: string, expected: number): Promise<Map<string, number>> {
    const deadline = Date.now() + 15_000;
    for (let i = 0; i < 100 && Date.now() < deadline; i++) {
      const body = (await (await fetch(`${base}/api/v1/targets?state=active`)).json()) as { data: { activeTargets: { scrapePool: string; scrapeUrl: string; labels: Record<string, string> }[] } };
      const mine = body.data.activeTargets.filter((t) => t.scrapePool === job);
      if (mine.length >= expected) return new Map(mine.map((t) => [t.labels['instance']!, Number(new URL(t.scrapeUrl).port)]));
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error(`Prometheus did not discover the ${expected} targets of ${job} within 15 s:\n${prom?.tail()}`);
  }

  it('default: the shipped example sends each of its targets to the replica whose --shard.index collects it', async () => {
    const example = YAML.parse(readFileSync(join(ROOT, 'examples', 'prometheus-sharded.yml'), 'utf8'));
    const job = example.scrape_configs.find((j: { job_name: string }) => j.job_name === 'avalanche-probe');
    const names: string[] = job.static_configs[0].targets;
    const portOfShard = new Map<number, number>(job.relabel_configs.filter((r: { regex?: string }) => r.regex !== undefined).map((r: { regex: string; replacement: string }) => [Number(r.regex), Number(r.replacement.split(':')[1])]));
    const got = await routes('avalanche-probe', names.length);
    // examples/config.yaml holds these names; each replica takes its shard of it.
    const config = readFileSync(join(ROOT, 'examples', 'config.yaml'), 'utf8');
    for (const n of names) expect(config).toContain(`name: ${n}`);
    for (const k of [0, 1]) for (const n of shardTargets(names, 2, k)) expect(got.get(n), n).toBe(portOfShard.get(k));
    expect(new Set(got.values()).size).toBe(2); // both replicas get some of the four
  });

  it('behavior: 60 names over 3 shards: Prometheus and the exporter put every name in the same shard', async () => {
    const got = await routes('three-shards', NAMES.length);
    for (const k of [0, 1, 2]) for (const n of shardTargets(NAMES, 3, k)) expect(got.get(n), n).toBe(20000 + k);
  });
});
