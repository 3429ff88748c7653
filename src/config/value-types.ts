import { z } from 'zod';
import { parseDuration } from '../duration.js';
import { parseListenAddress } from '../listen-address.js';

/**
 * The zod types of configuration values that are more than a string or a number: durations, sizes,
 * node URLs, listen addresses, IDs. Each error says what was expected, with an example.
 */

/** A duration such as 500ms, 15s, 1m30s, 1h, or a number of seconds → seconds (src/duration.ts). */
export const duration = (what: string) =>
  z.union([z.string(), z.number()]).transform((v, ctx) => {
    const s = parseDuration(v);
    if (s === undefined) {
      ctx.addIssue({ code: 'custom', message: `expected a duration such as 500ms, 15s, 5m, 1m30s or 1h (units largest first, each once) for ${what}, got ${JSON.stringify(v)}` });
      return z.NEVER;
    }
    return s;
  });

/** Parses `32MiB`, `512KiB`, `1000000` into bytes. */
function parseBytes(input: string | number): number | undefined {
  if (typeof input === 'number') return Number.isInteger(input) && input > 0 ? input : undefined;
  const m = /^(\d+)\s*(B|KiB|MiB|GiB|KB|MB|GB)?$/i.exec(input.trim());
  if (!m) return undefined;
  const unit = (m[2] ?? 'B').toLowerCase();
  const mult: Record<string, number> = { b: 1, kib: 1024, mib: 1024 ** 2, gib: 1024 ** 3, kb: 1e3, mb: 1e6, gb: 1e9 };
  return Number(m[1]) * (mult[unit] ?? 1);
}

/** A size such as 32MiB or a number of bytes → bytes. */
export const bytes = z.union([z.string(), z.number()]).transform((v, ctx) => {
  const b = parseBytes(v);
  if (b === undefined) {
    ctx.addIssue({ code: 'custom', message: `expected a size such as 32MiB or 1048576, got ${JSON.stringify(v)}` });
    return z.NEVER;
  }
  return b;
});

export const NODE_ID_RE = /^NodeID-[1-9A-HJ-NP-Za-km-z]{20,40}$/;
export const CB58_RE = /^[1-9A-HJ-NP-Za-km-z]{30,60}$/;

/** `primary` in a watched validator's `subnets`: the primary network (its CB58 ID works too). */
export const PRIMARY_SUBNET_WORD = 'primary';

const nodeId = z.string().regex(NODE_ID_RE, 'expected NodeID-<CB58>');

/**
 * One entry of `validatorNodeIds`: a node ID to watch (expected active on the primary network), or
 * `{ nodeId, subnets }`: a node ID expected active exactly on these subnets (`primary` or CB58 IDs).
 */
export const watchedValidator = z.union(
  [
    nodeId,
    z.strictObject({
      nodeId: z.string({ error: 'expected NodeID-<CB58> (each entry needs its nodeId)' }).regex(NODE_ID_RE, 'expected NodeID-<CB58>'),
      subnets: z
        .array(z.string().refine((s) => s === PRIMARY_SUBNET_WORD || CB58_RE.test(s), `expected ${PRIMARY_SUBNET_WORD} or a CB58 subnet ID`))
        .min(1, `expected at least one subnet (${PRIMARY_SUBNET_WORD} or a CB58 subnet ID); leave subnets out for the primary network alone`)
        .optional(),
    }),
  ],
  { error: 'expected NodeID-<CB58>, or { nodeId: NodeID-<CB58>, subnets: [primary, <CB58 subnet ID>, …] }' },
);

/** An http(s) URL (userinfo, path prefix and query are kept). */
export const nodeUrl = z.string().transform((v, ctx) => {
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    ctx.addIssue({ code: 'custom', message: 'expected an http(s) URL such as http://127.0.0.1:9650' });
    return z.NEVER;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') {
    ctx.addIssue({ code: 'custom', message: `expected an http or https URL, got scheme ${u.protocol.replace(':', '')}` });
    return z.NEVER;
  }
  return v;
});

/** host:port, :port or [v6]:port (src/listen-address.ts), with a port the server can bind. */
export const listenAddress = z.string().superRefine((v, ctx) => {
  const a = parseListenAddress(v);
  if (!a) ctx.addIssue({ code: 'custom', message: 'expected host:port or :port, e.g. :10650 (every interface) or 127.0.0.1:10650 (loopback only)' });
  // Checked here: node's listen() would throw a RangeError with a stack instead of a message.
  else if (!(a.port <= 65535)) ctx.addIssue({ code: 'custom', message: `expected a port 1-65535 (or 0 for any free port), got ${v.slice(v.lastIndexOf(':') + 1)}` });
});
