/**
 * Rewrites a v1.11.8+ `/ext/metrics` body (the real v1.14.2 capture) to the names an older avalanchego
 * would have used for the same values, so that one recorded body tests all three naming schemes.
 * The transformation, from the project's NODE-METRICS reference (renames by version):
 *
 * to v1.11.6–v1.11.7 (`toV1_11_6`): the chain goes back from the `chain` label into the name:
 * - `avalanche_snowman_<m>{chain="<a>"}` → `avalanche_<a>_<m>`; `avalanche_benchlist_<m>{chain}` → `avalanche_<a>_benchlist_<m>`;
 *   `avalanche_stake_percent_connected{chain}` → `avalanche_<a>_percent_connected`, `avalanche_stake_total_weight{chain}` →
 *   `avalanche_<a>_total_weight`, `avalanche_stake_num_validators{chain}` → `avalanche_<a>_num_validators` (as the real
 *   v1.11.7 node names it);
 * - `avalanche_handler_sync_unprocessed_msgs_count{chain,op}` → `avalanche_<a>_handler_unprocessed_msgs_count{op}`,
 *   `avalanche_handler_async_…` → `avalanche_<a>_handler_async_…`, other `avalanche_handler_<m>{chain}` → `avalanche_<a>_handler_<m>`;
 * - `avalanche_meterdb_<m>{chain="all"}` → `avalanche_db_<m>`, `{chain="<a>"}` → `avalanche_<a>_db_<m>`;
 * - `avalanche_meterchainvm_<m>{chain}` → `avalanche_<a>_vm_metervm_<m>`; `avalanche_platformvm_<m>{chain="P"}` →
 *   `avalanche_P_vm_<m>`; `avalanche_evm_<m>{chain="C"}` → `avalanche_C_vm_<m>`;
 * - `avalanche_process_process_<m>` → `avalanche_process_<m>`, `avalanche_process_go_<m>` → `avalanche_go_<m>`;
 * - LevelDB internals `avalanche_db_<m>{level…}` → `avalanche_db_internal_<m>` (every unlabelled-by-chain `avalanche_db_*`);
 * - `avalanche_health_checks_failing{check="<k>",tag}` → `avalanche_<k>_checks_failing{tag}`;
 * - dropped (did not exist yet): `avalanche_snowman_consensus_latencies*` (v1.14.2), `avalanche_snowman_poll_count` and the
 *   `avalanche_snowman_poll_duration{reason}` vector (v1.11.9).
 *
 * to v1.10.x (`toV1_10`): the above, then ops and methods back into names (summing the labels they drop):
 * - `avalanche_<a>_handler_messages{op}` → `avalanche_<a>_handler_<op>_count`;
 *   `avalanche_<a>_handler_{,async_}unprocessed_msgs_count{op}` → `…_unprocessed_msgs_len` (sum over op);
 *   `avalanche_<a>_handler_expired{op}` → `avalanche_<a>_handler_expired` (sum);
 * - `avalanche_db_{calls,duration}{method}` → `avalanche_db_<method>_{count,sum}` (same with the `<a>_db_` prefix);
 * - `avalanche_network_msgs{io,op,compressed}` → `avalanche_network_<op>_<io>` (sum over compressed),
 *   `avalanche_network_msgs_bytes{io,op}` → `avalanche_network_<op>_<io>_bytes`, `avalanche_network_msgs_failed_to_send{op}` →
 *   `avalanche_network_<op>_failed`.
 *
 * Comment lines are dropped (a reader must not need them). The result keeps the first-seen order.
 */

interface Line {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const LINE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+\S+)?$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

function parse(text: string): Line[] {
  const out: Line[] = [];
  for (const raw of text.split('\n')) {
    if (raw === '' || raw.startsWith('#')) continue;
    const m = LINE.exec(raw);
    if (!m) throw new Error(`rewrite: cannot read ${raw}`);
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(LABEL)) labels[l[1]!] = l[2]!;
    out.push({ name: m[1]!, labels, value: m[3] === '+Inf' ? Infinity : Number(m[3]) });
  }
  return out;
}

function without(labels: Record<string, string>, ...keys: string[]): Record<string, string> {
  const out = { ...labels };
  for (const k of keys) delete out[k];
  return out;
}

function render(lines: readonly Line[]): string {
  const sums = new Map<string, Line>();
  for (const l of lines) {
    const keys = Object.keys(l.labels).sort();
    const key = `${l.name}{${keys.map((k) => `${k}="${l.labels[k]}"`).join(',')}}`;
    const s = sums.get(key);
    if (s) s.value += l.value;
    else sums.set(key, { ...l });
  }
  return [...sums.values()]
    .map((l) => {
      const keys = Object.keys(l.labels);
      const v = l.value === Infinity ? '+Inf' : String(l.value);
      return `${l.name}${keys.length ? `{${keys.map((k) => `${k}="${l.labels[k]}"`).join(',')}}` : ''} ${v}`;
    })
    .join('\n')
    .concat('\n');
}

function renameV1_11_6(l: Line): Line | undefined {
  const { name, labels } = l;
  const chain = labels['chain'];
  const rest = without(labels, 'chain');
  const m = (re: RegExp) => re.exec(name);
  let r: RegExpExecArray | null;
  if (/^avalanche_snowman_(consensus_latencies|poll_count)/.test(name) || (name === 'avalanche_snowman_poll_duration' && labels['reason'] !== undefined)) return undefined;
  if (chain !== undefined && (r = m(/^avalanche_snowman_(.+)$/))) return { ...l, name: `avalanche_${chain}_${r[1]}`, labels: rest };
  if (chain !== undefined && (r = m(/^avalanche_benchlist_(.+)$/))) return { ...l, name: `avalanche_${chain}_benchlist_${r[1]}`, labels: rest };
  if (chain !== undefined && name === 'avalanche_stake_percent_connected') return { ...l, name: `avalanche_${chain}_percent_connected`, labels: rest };
  if (chain !== undefined && name === 'avalanche_stake_total_weight') return { ...l, name: `avalanche_${chain}_total_weight`, labels: rest };
  if (chain !== undefined && name === 'avalanche_stake_num_validators') return { ...l, name: `avalanche_${chain}_num_validators`, labels: rest };
  if (chain !== undefined && (r = m(/^avalanche_handler_sync_(.+)$/))) return { ...l, name: `avalanche_${chain}_handler_${r[1]}`, labels: rest };
  if (chain !== undefined && (r = m(/^avalanche_handler_(.+)$/))) return { ...l, name: `avalanche_${chain}_handler_${r[1]}`, labels: rest };
  if (chain !== undefined && (r = m(/^avalanche_meterdb_(.+)$/))) return { ...l, name: chain === 'all' ? `avalanche_db_${r[1]}` : `avalanche_${chain}_db_${r[1]}`, labels: rest };
  if (chain !== undefined && (r = m(/^avalanche_meterchainvm_(.+)$/))) return { ...l, name: `avalanche_${chain}_vm_metervm_${r[1]}`, labels: rest };
  if (chain === 'P' && (r = m(/^avalanche_platformvm_(.+)$/))) return { ...l, name: `avalanche_P_vm_${r[1]}`, labels: rest };
  if (chain === 'C' && (r = m(/^avalanche_evm_(.+)$/))) return { ...l, name: `avalanche_C_vm_${r[1]}`, labels: rest };
  if ((r = m(/^avalanche_process_process_(.+)$/))) return { ...l, name: `avalanche_process_${r[1]}` };
  if ((r = m(/^avalanche_process_go_(.+)$/))) return { ...l, name: `avalanche_go_${r[1]}` };
  if (chain === undefined && (r = m(/^avalanche_db_(.+)$/))) return { ...l, name: `avalanche_db_internal_${r[1]}` };
  if (name === 'avalanche_health_checks_failing' && labels['check'] !== undefined) return { ...l, name: `avalanche_${labels['check']}_checks_failing`, labels: without(labels, 'check') };
  return l;
}

function renameV1_10(l: Line): Line | undefined {
  const { name, labels } = l;
  const op = labels['op'];
  const method = labels['method'];
  let r: RegExpExecArray | null;
  if (op !== undefined && (r = /^avalanche_(\w+?)_handler_messages$/.exec(name))) return { ...l, name: `avalanche_${r[1]}_handler_${op}_count`, labels: without(labels, 'op') };
  if ((r = /^(avalanche_\w+?_handler_(?:async_)?unprocessed_msgs)_count$/.exec(name))) return { ...l, name: `${r[1]}_len`, labels: without(labels, 'op') };
  if (/^avalanche_\w+?_handler_expired$/.test(name)) return { ...l, labels: without(labels, 'op') };
  if (method !== undefined && (r = /^(avalanche_(?:\w+?_)?db)_(calls|duration)$/.exec(name))) return { ...l, name: `${r[1]}_${method}_${r[2] === 'calls' ? 'count' : 'sum'}`, labels: without(labels, 'method') };
  if (op !== undefined && name === 'avalanche_network_msgs') return { ...l, name: `avalanche_network_${op}_${labels['io']}`, labels: without(labels, 'op', 'io', 'compressed') };
  if (op !== undefined && name === 'avalanche_network_msgs_bytes') return { ...l, name: `avalanche_network_${op}_${labels['io']}_bytes`, labels: without(labels, 'op', 'io') };
  if (op !== undefined && name === 'avalanche_network_msgs_failed_to_send') return { ...l, name: `avalanche_network_${op}_failed`, labels: without(labels, 'op') };
  return l;
}

/** The body as avalanchego v1.11.6–v1.11.7 would have named it. */
export function toV1_11_6(text: string): string {
  return render(parse(text).flatMap((l) => renameV1_11_6(l) ?? []));
}

/** The body as avalanchego v1.10.x (up to v1.11.5) would have named it. */
export function toV1_10(text: string): string {
  return render(
    parse(text)
      .flatMap((l) => renameV1_11_6(l) ?? [])
      .flatMap((l) => renameV1_10(l) ?? []),
  );
}
