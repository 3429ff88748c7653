// The interval rule, written once: the base collection interval (collection.interval) is one a clock can
// run, and every collector runs once every whole number of base cycles. A user's collector interval must
// be such a multiple (the configuration refuses another: config/schema.ts); a collector's default (a
// multiple of 15 s) is rounded up to one when the base is another (config/targets.ts); the scheduler
// runs a collector every `cyclesOf` cycles (scheduler/collector-slot.ts).

/**
 * A base collection interval that a clock can run: it divides a minute (1s-30s, or 60s) or an hour
 * (whole minutes up to 30m), so every cycle starts at the same seconds of each minute or hour
 * (the scheduler's cron expression, scheduler/scheduler.ts cronFor).
 */
export function isBaseInterval(seconds: number): boolean {
  const divides = (n: number, whole: number) => Number.isInteger(n) && n >= 1 && n < whole && whole % n === 0;
  return divides(seconds, 60) || seconds === 60 || divides(seconds / 60, 60);
}

/** Whether a collector interval is a whole number (1 or more) of base cycles: what a user may set. */
export function isWholeCycles(seconds: number, baseSeconds: number): boolean {
  const ratio = seconds / baseSeconds;
  return ratio >= 1 && Math.abs(ratio - Math.round(ratio)) < 1e-9;
}

/** How many base cycles a collector interval spans: rounded up, at least one. */
export function cyclesOf(seconds: number, baseSeconds: number): number {
  return Math.max(1, Math.ceil(seconds / baseSeconds - 1e-9));
}
