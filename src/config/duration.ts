/** Parses `500ms`, `15s`, `5m`, `1h`, `1m30s` or a plain number of seconds into seconds. */
export function parseDuration(input: string | number): number | undefined {
  if (typeof input === 'number') return Number.isFinite(input) && input >= 0 ? input : undefined;
  const s = input.trim();
  if (/^\d+(\.\d+)?$/.test(s)) return Number(s);
  const re = /(\d+(?:\.\d+)?)(ms|s|m|h|d)/gy;
  let total = 0;
  let matched = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(s)) !== null) {
    const n = Number(m[1]);
    const unit = m[2];
    total += unit === 'ms' ? n / 1000 : unit === 's' ? n : unit === 'm' ? n * 60 : unit === 'h' ? n * 3600 : n * 86400;
    matched = re.lastIndex;
  }
  return matched === s.length && s.length > 0 ? total : undefined;
}

export function formatDuration(seconds: number): string {
  if (seconds < 1) return `${Math.round(seconds * 1000)}ms`;
  if (seconds % 3600 === 0) return `${seconds / 3600}h`;
  if (seconds % 60 === 0) return `${seconds / 60}m`;
  return `${seconds}s`;
}

/** Parses `32MiB`, `512KiB`, `1000000` into bytes. */
export function parseBytes(input: string | number): number | undefined {
  if (typeof input === 'number') return Number.isInteger(input) && input > 0 ? input : undefined;
  const m = /^(\d+)\s*(B|KiB|MiB|GiB|KB|MB|GB)?$/i.exec(input.trim());
  if (!m) return undefined;
  const unit = (m[2] ?? 'B').toLowerCase();
  const mult: Record<string, number> = { b: 1, kib: 1024, mib: 1024 ** 2, gib: 1024 ** 3, kb: 1e3, mb: 1e6, gb: 1e9 };
  return Number(m[1]) * (mult[unit] ?? 1);
}
