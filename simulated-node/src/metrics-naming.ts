// The names of the simulated node's GET /ext/metrics in the naming of older releases: v1.11.6–v1.11.7 (the chain
// alias back in the name) and v1.10.x (ops and methods in the name too).
// Part of the simulated avalanchego node, an independent oracle ON PURPOSE: this package shares no
// code with the exporter (src/) and has its own CB58, JSON-RPC envelope and constants, so
// that a bug in the exporter's decoding cannot hide behind the same bug here. Do not "fix" this
// duplication (test/sim/independence.test.ts fails on any import from outside this package).
import type { Line } from './prometheus-text.js';

export type MetricsNaming = 'v1.11.8' | 'v1.11.6' | 'v1.10';

/** v1.11.8+ name → the v1.11.6–v1.11.7 name (chain alias back in the name); undefined: did not exist. */
function toV1_11_6(l: Line): Line | undefined {
  const { name, labels } = l;
  const ch = labels['chain'];
  const rest = { ...labels };
  delete rest['chain'];
  let r: RegExpExecArray | null;
  if (/^avalanche_snowman_(consensus_latencies|poll_count)/.test(name)) return undefined;
  if (ch && (r = /^avalanche_snowman_(.+)$/.exec(name))) return { ...l, name: `avalanche_${ch}_${r[1]}`, labels: rest };
  if (ch && (r = /^avalanche_benchlist_(.+)$/.exec(name))) return { ...l, name: `avalanche_${ch}_benchlist_${r[1]}`, labels: rest };
  if (ch && name === 'avalanche_stake_percent_connected') return { ...l, name: `avalanche_${ch}_percent_connected`, labels: rest };
  if (ch && name === 'avalanche_stake_total_weight') return { ...l, name: `avalanche_${ch}_total_weight`, labels: rest };
  if (ch && (r = /^avalanche_handler_(?:sync_)?(.+)$/.exec(name))) return { ...l, name: `avalanche_${ch}_handler_${r[1]}`, labels: rest };
  if (ch && (r = /^avalanche_meterdb_(.+)$/.exec(name))) return { ...l, name: ch === 'all' ? `avalanche_db_${r[1]}` : `avalanche_${ch}_db_${r[1]}`, labels: rest };
  if (ch && (r = /^avalanche_meterchainvm_(.+)$/.exec(name))) return { ...l, name: `avalanche_${ch}_vm_metervm_${r[1]}`, labels: rest };
  if (ch === 'P' && (r = /^avalanche_platformvm_(.+)$/.exec(name))) return { ...l, name: `avalanche_P_vm_${r[1]}`, labels: rest };
  if (ch === 'C' && (r = /^avalanche_evm_(.+)$/.exec(name))) return { ...l, name: `avalanche_C_vm_${r[1]}`, labels: rest };
  if ((r = /^avalanche_process_process_(.+)$/.exec(name))) return { ...l, name: `avalanche_process_${r[1]}` };
  if ((r = /^avalanche_process_go_(.+)$/.exec(name))) return { ...l, name: `avalanche_go_${r[1]}` };
  if (!ch && (r = /^avalanche_db_(.+)$/.exec(name))) return { ...l, name: `avalanche_db_internal_${r[1]}` };
  if (name === 'avalanche_health_checks_failing') return { ...l, name: `avalanche_${labels['check']}_checks_failing`, labels: { tag: labels['tag']! } };
  return l;
}

/** v1.11.6 name → the v1.10.x name (ops and methods in the name, their labels summed away). */
function toV1_10(l: Line): Line {
  const { name, labels } = l;
  const { op, method, io } = labels;
  let r: RegExpExecArray | null;
  if (op && (r = /^(avalanche_\w+?_handler)_messages$/.exec(name))) return { ...l, name: `${r[1]}_${op}_count`, labels: {} };
  if (op && (r = /^(avalanche_\w+?_handler)_message_handling_time$/.exec(name))) return { ...l, name: `${r[1]}_${op}_msg_handling_sum`, labels: {} };
  if ((r = /^(avalanche_\w+?_handler_(?:async_)?unprocessed_msgs)_count$/.exec(name))) return { ...l, name: `${r[1]}_len`, labels: {} };
  if (/^avalanche_\w+?_handler_expired$/.test(name)) return { ...l, labels: {} };
  if (method && (r = /^(avalanche_(?:\w+?_)?db)_(calls|duration|size)$/.exec(name))) return { ...l, name: `${r[1]}_${method}_${r[2] === 'calls' ? 'count' : r[2] === 'duration' ? 'sum' : 'size_sum'}`, labels: {} };
  if (op && name === 'avalanche_network_msgs') return { ...l, name: `avalanche_network_${op}_${io}`, labels: {} };
  if (op && name === 'avalanche_network_msgs_bytes') return { ...l, name: `avalanche_network_${op}_${io}_bytes`, labels: {} };
  if (op && name === 'avalanche_network_msgs_failed_to_send') return { ...l, name: `avalanche_network_${op}_failed`, labels: {} };
  return l;
}

export function rename(lines: Line[], naming: MetricsNaming): Line[] {
  if (naming !== 'v1.11.8') lines = lines.flatMap((l) => toV1_11_6(l) ?? []);
  if (naming === 'v1.10') lines = lines.map(toV1_10);
  return lines;
}
