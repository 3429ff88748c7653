// The C-Chain under SAE (ACP-194, avalanchego v1.15.0 once Helicon is active: vms/saevm): consensus accepts a
// block, the node's executor runs it afterwards (queue → execution), and a later block accepted Tau (5 s) after
// a block's execution settles it (blocks.LastToSettleAt). What the node shows of that: the last executed height
// (eth_blockNumber, `latest`), the last settled one (`safe`, `finalized`), the queue, the gas the executed blocks
// were charged and the execution durations (/ext/metrics, sae-metrics.ts). Everything is a pure function of the
// seed, the clock, the heights, the process start and the scenario: a block's gas and its execution time depend
// on its height only (periodic in the height, so that sums over millions of blocks take constant time).
// Part of the simulated avalanchego node, an independent oracle ON PURPOSE: this package shares no
// code with the exporter (src/) and has its own CB58, JSON-RPC envelope and constants, so
// that a bug in the exporter's decoding cannot hide behind the same bug here. Do not "fix" this
// duplication (test/sim/independence.test.ts fails on any import from outside this package).
import { hf } from './deterministic-random.js';
import type { Scenario } from './scenarios/scenario.js';

/** What this file needs of the node model (NodeModel satisfies it structurally). */
export interface SaeModel {
  readonly seed: number;
  now(): number;
  readonly profile: { readonly saeFromUnix: number | null };
  /** when the node's process (re)started (ms) */
  readonly processStartMs: number;
  /** the active scenario (`node.saeExecution`) and when it started (ms) */
  readonly active: Scenario;
  readonly scenarioSinceMs: number;
  height(chain: 'C'): number;
  acceptedAtMs(chain: 'C', h: number): number;
  networkHeightAt(chain: 'C', ms: number): number;
}

/** params.Tau: a block settles once a block accepted Tau after its execution is accepted. */
export const TAU_MS = 5000;
/** ACP-176 gas target per second (the recorded node's `gas_target`); the gas clock runs at twice it (R = 2T). */
export const GAS_TARGET = 1_000_000;
/** The blocks' base fee (nAVAX·1e9 = wei): the simulated C-Chain's baseFeePerGas, 25 gwei. */
export const BASE_FEE_WEI = 25_000_000_000;
/** A block's time is this long before this node accepted it (consensus). */
const BLOCK_TO_ACCEPT_MS = 800;
/** The per-block values repeat every PERIOD heights (a multiple of the 40 of the transactions' count). */
const PERIOD = 320;
/** How far back an executed or settled height is looked for (a healthy executor is a block or two behind). */
const LOOKBACK = 10_000;

/** Transactions of block h (the gas convention of the simulated C-Chain: 21,000 gas each). */
export const txCount = (h: number): number => ((h % 40) + 40) % 40;
/** Gas the executed block h was charged (transfers: 21,000 each). */
export const chargedGas = (h: number): number => 21_000 * txCount(h);
/** Worst-case gas of block h (its header's gasUsed under SAE: the transactions' gas limits, 1.6 × charged). */
export const worstCaseGas = (h: number): number => 33_600 * txCount(h);
/** Wall time of block h's execution (state commit included), ms: 2 to 62, most of them short. */
export const executeMs = (seed: number, h: number): number => 2 + Math.floor(hf(seed, h % PERIOD, 1941) ** 2 * 60);
/** Time from block h's acceptance to the end of its execution, ms (its wait in the queue, then its execution). */
export const queueMs = (seed: number, h: number): number => Math.floor(hf(seed, h % PERIOD, 1942) * 30) + executeMs(seed, h);

/** Whether the C-Chain runs SAE now (the node's version has it and the transition time has passed). */
export function saeActive(m: Pick<SaeModel, 'profile' | 'now'>): boolean {
  const from = m.profile.saeFromUnix;
  return from !== null && m.now() >= from * 1000;
}

/** The block time of block h (ms): BLOCK_TO_ACCEPT_MS before this node accepted it. */
export function blockTimeMs(m: SaeModel, h: number): number {
  return m.acceptedAtMs('C', h) - BLOCK_TO_ACCEPT_MS;
}

/** The last block executed at `t` when `accepted` is the last accepted one (healthy executor). */
function executedAt(m: SaeModel, accepted: number, t: number): number {
  let h = accepted;
  for (let i = 0; i < LOOKBACK && h > 0 && m.acceptedAtMs('C', h) + queueMs(m.seed, h) > t; i++) h--;
  return h;
}

const FROZEN = new WeakMap<object, { sinceMs: number; height: number }>();

/** The last executed height now: frozen at the switch while the executor is stalled (execution-stalled). */
export function executedHeight(m: SaeModel): number {
  const accepted = m.height('C');
  if (m.active.node?.saeExecution !== 'stalled') return executedAt(m, accepted, m.now());
  let f = FROZEN.get(m);
  if (!f || f.sinceMs !== m.scenarioSinceMs) {
    const at = m.scenarioSinceMs;
    f = { sinceMs: at, height: executedAt(m, Math.min(accepted, m.networkHeightAt('C', at)), at) };
    FROZEN.set(m, f);
  }
  return Math.min(f.height, accepted);
}

/** The last settled height of `executed`, as block `accepted` settled it: executed by its time − Tau. */
export function settledHeight(m: SaeModel, accepted: number, executed: number): number {
  const by = blockTimeMs(m, accepted) - TAU_MS;
  let h = Math.min(executed, accepted);
  for (let i = 0; i < LOOKBACK && h > 0 && blockTimeMs(m, h) + queueMs(m.seed, h) > by; i++) h--;
  return h;
}

/**
 * The transition block: the first block at or after the transition time, the last one Coreth executes
 * (vms/transitionvm: the pre-transition VM executes blocks up to and including it); SAE executes the next ones.
 */
export function transitionBlock(m: SaeModel): number {
  const ms = (m.profile.saeFromUnix ?? 0) * 1000;
  let h = m.networkHeightAt('C', ms + BLOCK_TO_ACCEPT_MS);
  for (let i = 0; i < LOOKBACK && h > 0 && blockTimeMs(m, h) >= ms; i++) h--;
  for (let i = 0; i < LOOKBACK && blockTimeMs(m, h) < ms; i++) h++;
  return h;
}

/** Σ f(h) over heights a < h ≤ b for a PERIOD-periodic f (one period summed, then the rest). */
function periodicSum(a: number, b: number, f: (h: number) => number): number {
  if (b <= a) return 0;
  const n = b - a;
  let period = 0;
  let rest = 0;
  const full = Math.floor(n / PERIOD);
  for (let i = 1; i <= PERIOD; i++) {
    const v = f(a + i);
    if (full > 0) period += v;
    if (i <= n - full * PERIOD) rest += v;
  }
  return full * period + rest;
}

/** A histogram's cumulative bucket counts and sum over the blocks a < h ≤ b, one observation each. */
export function histogram(a: number, b: number, bounds: readonly number[], seconds: (h: number) => number): { buckets: number[]; sum: number; count: number } {
  const buckets = bounds.map((le) => periodicSum(a, b, (h) => (seconds(h) <= le ? 1 : 0)));
  return { buckets, sum: periodicSum(a, b, seconds), count: Math.max(0, b - a) };
}

/** What the node shows of its C-Chain execution now. */
export interface SaeState {
  accepted: number;
  executed: number;
  settled: number;
  /** the last block executed before the process started (or before the transition): counters start after it */
  executedAtStart: number;
  /** Σ over executed/accepted since the start: charged gas, worst-case gas */
  gasCharged: number;
  executedGasLimit: number;
  acceptedGasLimit: number;
  queueGasLimit: number;
}

export function saeState(m: SaeModel): SaeState {
  const accepted = m.height('C');
  const executed = executedHeight(m);
  const settled = settledHeight(m, accepted, executed);
  // SAE's registry lives from the process start or, for a process that was running then, from the transition.
  const start = m.processStartMs;
  const atStart = Math.min(executed, Math.max(transitionBlock(m), executedAt(m, Math.min(accepted, m.networkHeightAt('C', start)), start)));
  return {
    accepted,
    executed,
    settled,
    executedAtStart: atStart,
    gasCharged: periodicSum(atStart, executed, chargedGas),
    executedGasLimit: periodicSum(atStart, executed, worstCaseGas),
    acceptedGasLimit: periodicSum(atStart, accepted, worstCaseGas),
    queueGasLimit: periodicSum(executed, accepted, worstCaseGas),
  };
}
