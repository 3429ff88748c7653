import { createHash } from 'node:crypto';
import { defaultTargetName, type Config } from './schema.js';

/**
 * Prometheus's `hashmod` relabel action, exactly: the MD5 of the value, its last 8 bytes read as a
 * big-endian unsigned 64-bit integer, modulo `modulus` (prometheus/model/relabel/relabel.go, HashMod:
 * "use only the last 8 bytes of the hash to give the same result as earlier versions"). With
 * `source_labels: [__param_target]` the value is the target name. An exporter replica started with
 * --shard.total N --shard.index k collects the targets whose name hashes to k, so that Prometheus,
 * relabelling `/probe?target=` scrapes with the same hashmod, asks each replica for its own targets.
 */
export function prometheusHashmod(value: string, modulus: number): number {
  const digest = createHash('md5').update(value, 'utf8').digest();
  return Number(digest.readBigUInt64BE(8) % BigInt(modulus));
}

/** The shard of the fleet that one exporter replica collects (total 1 = the whole fleet). */
export interface Shard {
  readonly total: number;
  readonly index: number;
}

export function inShard(name: string, shard: Shard): boolean {
  return shard.total <= 1 || prometheusHashmod(name, shard.total) === shard.index;
}

/**
 * /probe?target= for a configured name that another replica collects: which shard has it, so that a
 * relabeling that disagrees with --shard.* is found at once. Undefined when unsharded or unknown.
 */
export function otherShardText(cfg: Pick<Config, 'shard' | 'targets'>, name: string): string | undefined {
  if (cfg.shard.total <= 1 || inShard(name, cfg.shard)) return undefined;
  if (!cfg.targets.some((t) => (t.name ?? defaultTargetName(t.url)) === name)) return undefined;
  const k = prometheusHashmod(name, cfg.shard.total);
  return `collected by the replica with --shard.index ${k} (of --shard.total ${cfg.shard.total}), not by this one (--shard.index ${cfg.shard.index}); the Prometheus relabeling must send it there (hashmod of the target name, modulus ${cfg.shard.total}: see examples/prometheus-sharded.yml)`;
}
