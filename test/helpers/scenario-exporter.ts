// The exporter of the scenario tests (test/scenarios): a simulated node and the real exporter in
// process, every collector every 2 s, cycles driven by collectOnce(). One home for what those files
// had pasted: how the pair is started and what one cycle is.
import { COLLECTORS } from '../../src/collectors/index.js';
import { loadConfig } from '../../src/config/load.js';
import { startExporter, type Exporter } from '../../src/main.js';
import { startSimNode, type ScenarioName, type SimNode, type SimOptions } from '../../src/sim/server.js';
import type { Logger } from 'pino';

export interface ScenarioExporter {
  readonly sim: SimNode;
  readonly exporter: Exporter;
  stop(): Promise<void>;
}

/**
 * Starts `sim` options' simulated node and an exporter watching its node 0 as target `a` (and the
 * subnets given), every collector every 2 s, on the clock `now` shared with the simulator; runs
 * one first cycle.
 */
export async function startScenarioExporter(o: { sim: SimOptions; logger: Logger; now: () => number; subnets?: (sim: SimNode) => readonly string[] }): Promise<ScenarioExporter> {
  const sim = await startSimNode({ ...o.sim, now: o.now });
  const subnets = o.subnets?.(sim) ?? [];
  const yaml = `collection: { interval: 2s, timeout: 2s }
node: { timeout: 1s }
collectors: {${COLLECTORS.map((c) => ` ${c.name}: { interval: 2s }`).join(',')} }
targets:
  - { name: a, url: "${sim.nodeUrl(0)}"${subnets.length > 0 ? `, subnets: [${subnets.map((s) => `"${s}"`).join(', ')}]` : ''} }
`;
  const { config } = loadConfig({ argv: ['--config.file', 'a.yaml'], env: {}, readFile: () => yaml });
  const exporter = await startExporter({ config, logger: o.logger, now: o.now, listen: false, schedule: false });
  await exporter.collectOnce();
  return {
    sim,
    exporter,
    async stop() {
      await exporter.stop();
      await sim.close();
    },
  };
}

/**
 * One cycle of a scenario test whose simulator recomputes its health checks on the wall clock:
 * switches node `node` (all when omitted) to `scenario`, waits `settleMs` for the checks, runs one
 * cycle and returns /metrics.
 */
export async function settledCycle(sim: SimNode, exporter: Exporter, settleMs: number, scenario?: ScenarioName, node?: number): Promise<string> {
  if (scenario) await sim.setScenario(scenario, node);
  await new Promise((r) => setTimeout(r, settleMs));
  await exporter.collectOnce();
  return exporter.current().text.toString('utf8');
}
