import type { CollectorContext } from './define.js';

/**
 * Small helpers shared by the collectors (not a collector itself).
 */

export type Settled<T> = { ok: true; value: T } | { ok: false; error: Error };

/** Runs calls concurrently (Promise.allSettled); never rejects; keeps the tuple's types. */
export async function settleAll<P extends readonly Promise<unknown>[]>(
  calls: readonly [...P],
): Promise<{ -readonly [K in keyof P]: Settled<Awaited<P[K]>> }> {
  const out = await Promise.allSettled(calls);
  return out.map((r) => (r.status === 'fulfilled' ? { ok: true, value: r.value } : { ok: false, error: asError(r.reason) })) as {
    -readonly [K in keyof P]: Settled<Awaited<P[K]>>;
  };
}

/** Errors of the settled calls that failed. */
export function failures(results: readonly Settled<unknown>[]): Error[] {
  const out: Error[] = [];
  for (const r of results) if (!r.ok) out.push(r.error);
  return out;
}

export async function settle<T>(call: Promise<T>): Promise<Settled<T>> {
  try {
    return { ok: true, value: await call };
  } catch (err) {
    return { ok: false, error: asError(err) };
  }
}

export function asError(e: unknown): Error {
  return e instanceof Error ? e : new Error(String(e));
}

/**
 * Calls `log` only when the value stored under `key` in ctx.state changes (one log line per
 * state change, never per cycle). Returns true when it logged.
 */
export function onChange(ctx: Pick<CollectorContext, 'state'>, key: string, value: string, log: () => void): boolean {
  if (ctx.state.get(key) === value) return false;
  ctx.state.set(key, value);
  log();
  return true;
}

/**
 * Percent (0-100, node strings carry at most 4 decimals) to a ratio without float noise:
 * 99.9103 / 100 is 0.9991030000000001 in binary floating point; this gives 0.999103.
 */
export function percentToRatio(percent: number): number {
  return Math.round(percent * 1e6) / 1e8;
}
