// The exporter of the scenario tests (test/scenarios): simulated nodes and the real exporter in
// process, cycles driven by collectOnce(). One home for what those files had pasted: how the pair is
// started and stopped (beforeAll/afterAll), the clock they share, and what one cycle is.
import { afterAll, beforeAll } from 'vitest';
import { COLLECTORS } from '../../src/collectors/index.js';
import { loadConfig } from '../../src/config/load.js';
import { startExporter, type Exporter } from '../../src/main.js';
import { startSimNode, type ScenarioName, type SimNode, type SimOptions } from '@avalanche-exporter/simulated-node';
import type { Logger } from 'pino';
import { metric } from './proc.js';

/** A target of the scenario exporter: simulated node `node` under `name`, with its target options. */
export interface ScenarioTarget {
  name: string;
  node: number;
  subnets?: readonly string[];
  expectActive?: boolean;
  validatorNodeIds?: readonly string[];
}

export interface ScenarioOptions {
  sim: SimOptions;
  logger: Logger;
  /** the targets, from the started simulator; default: node 0 as target `a` */
  targets?: (sim: SimNode) => readonly ScenarioTarget[];
  /** every collector's interval, in seconds (default 2); a cycle's deadline is the same, a request's half */
  intervalSeconds?: number;
  /** every collector enabled, also those that are off by default */
  allCollectors?: boolean;
  /**
   * The start (ms) of a clock injected into the simulator and the exporter, moved only by `cycle`
   * and `setNow`. Without it both run on the wall clock, and `settledCycle` waits for the health checks.
   */
  clock?: number;
  /** how far `cycle` moves the injected clock by default (ms); default 2000 */
  stepMs?: number;
}

export interface ScenarioPair {
  readonly sim: SimNode;
  readonly exporter: Exporter;
  /** the injected clock (ms) */
  now(): number;
  setNow(ms: number): void;
  /** Switches every node to `scenario` (when given), moves the injected clock by `stepMs`, runs one cycle; returns /metrics. */
  cycle(scenario?: ScenarioName, stepMs?: number): Promise<string>;
  /**
   * On the wall clock: switches node `node` (all when omitted) to `scenario` (when given), waits one
   * health interval (and a little) for the checks, runs one cycle; returns /metrics.
   */
  settledCycle(scenario?: ScenarioName, node?: number): Promise<string>;
}

/** The value of `name{labels}` for the default target `a` in a /metrics text (undefined: no such series). */
export const metricOfA = (text: string, name: string, labels: Record<string, string> = {}): number | undefined => metric(text, name, { target: 'a', ...labels });

function configYaml(sim: SimNode, o: ScenarioOptions): string {
  const s = o.intervalSeconds ?? 2;
  const targets = o.targets?.(sim) ?? [{ name: 'a', node: 0 }];
  const enabled = o.allCollectors ? ' enabled: true,' : '';
  // JSON is YAML: each target is one flow mapping.
  const target = ({ name, node, ...t }: ScenarioTarget) => `  - ${JSON.stringify({ name, url: sim.nodeUrl(node), ...t })}`;
  return `collection: { interval: ${s}s, timeout: ${s}s }
node: { timeout: ${s / 2}s }
collectors: {${COLLECTORS.map((c) => ` ${c.name}: {${enabled} interval: ${s}s }`).join(',')} }
targets:
${targets.map(target).join('\n')}
`;
}

/**
 * Registers a beforeAll that starts `sim` options' simulated node(s) and an exporter watching the
 * targets given (and runs one warm-up cycle), and an afterAll that stops both. Call it at the top of
 * a file or inside a describe.
 */
export function useScenarioExporter(o: ScenarioOptions): ScenarioPair {
  let sim: SimNode | undefined;
  let exporter: Exporter | undefined;
  let clock = o.clock;
  const now = o.clock === undefined ? undefined : () => clock!;
  const started = <T>(v: T | undefined): T => {
    if (v === undefined) throw new Error('the scenario exporter is not started (used outside a test?)');
    return v;
  };
  const injected = (): number => {
    if (clock === undefined) throw new Error('the scenario exporter runs on the wall clock: give `clock` to move one');
    return clock;
  };
  const collect = async (): Promise<string> => {
    await started(exporter).collectOnce();
    return started(exporter).current().text.toString('utf8');
  };

  beforeAll(async () => {
    sim = await startSimNode({ ...o.sim, ...(now ? { now } : {}) });
    const { config } = loadConfig({ argv: ['--config.file', 'scenario.yaml'], env: {}, readFile: () => configYaml(sim!, o) });
    exporter = await startExporter({ config, logger: o.logger, ...(now ? { now } : {}), listen: false, schedule: false });
    await exporter.collectOnce(); // warm-up
  });
  afterAll(async () => {
    await exporter?.stop();
    await sim?.close();
  });

  return {
    get sim() {
      return started(sim);
    },
    get exporter() {
      return started(exporter);
    },
    now: injected,
    setNow(ms) {
      injected();
      clock = ms;
    },
    async cycle(scenario, stepMs = o.stepMs ?? 2000) {
      injected();
      if (scenario) await started(sim).setScenario(scenario);
      clock = injected() + stepMs;
      return collect();
    },
    async settledCycle(scenario, node) {
      if (scenario) await started(sim).setScenario(scenario, node);
      await new Promise((r) => setTimeout(r, (o.sim.healthIntervalMs ?? 30_000) + 30));
      return collect();
    },
  };
}
