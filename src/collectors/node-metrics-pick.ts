import { sample, type Sample } from '../model.js';
import { NAMING_SCHEMES, NODE_SIGNALS, type NamingScheme, type NativeName, type NodeSignal } from './node-metrics-signals.js';
import type { TextLabels } from './prometheus-text.js';

/**
 * Picks the curated signals out of the samples of a node's /ext/metrics (pure: samples in, our
 * samples out). Every native name of every naming scheme is looked up in one map; each scheme sums
 * its own matches, and the scheme whose scheme-specific names matched most wins (ties: the scheme the
 * node's version implies, else the newest). Label values come from bounded sets only.
 */

/** Blockchain IDs of the Primary Network chains on mainnet and Fuji, shown as their alias. */
const PRIMARY_CHAIN_IDS: Readonly<Record<string, string>> = {
  '11111111111111111111111111111111LpoYY': 'P',
  '2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByM': 'X',
  '2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CmH8ttsqiv6Rcb7oQaT': 'C',
  '2JVSBoinj9C2J33VntvzYtVJNZdN2NKiwwKjcumHUWEb5DbBrm': 'X',
  yH8D7ThNJkxmtkuv2jgBa4P1Rn3Qpr4pPr7QYNfcdoS6k6HWp: 'C',
};
const PRIMARY_ALIASES = ['P', 'X', 'C'];

/** Distinct series kept per scheme at most (histogram `le` is the only open-ended label). */
export const MAX_KEYS_PER_SCHEME = 4096;

interface NameEntry {
  readonly signal: NodeSignal;
  readonly index: number;
  readonly source: NativeName;
  /** The chain the name carries (`<a>`), or the source's onlyChain. */
  readonly chain?: string;
  /** The op or method the name carries (`<op>`). */
  readonly op?: string;
  /** Matched by more than one scheme's names? (then it does not tell the schemes apart) */
  readonly specific: boolean;
}

/** Native name → what it feeds, for P, X, C and the watched chains. */
export class SignalIndex {
  private readonly byName = new Map<string, NameEntry[]>();
  /** Watched chain (blockchain ID or alias, as configured) → label value. */
  readonly chainLabel: ReadonlyMap<string, string>;

  constructor(watchedChains: readonly string[] = []) {
    const labels = new Map<string, string>();
    for (const a of PRIMARY_ALIASES) labels.set(a, a);
    for (const [id, a] of Object.entries(PRIMARY_CHAIN_IDS)) labels.set(id, a);
    for (const c of watchedChains) if (!labels.has(c)) labels.set(c, c);
    this.chainLabel = labels;
    const aliases = [...new Set([...PRIMARY_ALIASES, ...watchedChains.filter((c) => !PRIMARY_CHAIN_IDS[c])])];
    NODE_SIGNALS.forEach((signal, index) => {
      for (const source of signal.native) {
        const specific = source.schemes.length < NAMING_SCHEMES.length;
        const chains = source.name.includes('<a>') ? aliases : [undefined];
        const ops = source.name.includes('<op>') ? (source.opList ?? []) : [undefined];
        for (const chain of chains) {
          if (source.onlyChain && chain !== undefined && chain !== source.onlyChain) continue;
          for (const op of ops) {
            let name = source.name;
            if (chain !== undefined) name = name.replace('<a>', chain);
            if (op !== undefined) name = name.replace('<op>', op);
            const entry: NameEntry = { signal, index, source, chain: chain ?? (signal.perChain ? source.onlyChain : undefined), op, specific };
            const list = this.byName.get(name);
            if (list) list.push(entry);
            else this.byName.set(name, [entry]);
          }
        }
      }
    });
  }

  has(name: string): boolean {
    return this.byName.has(name);
  }
  entries(name: string): readonly NameEntry[] | undefined {
    return this.byName.get(name);
  }
  /** Every native name (for tests: the fuzz property, the scheme rewrite). */
  names(): string[] {
    return [...this.byName.keys()];
  }
}

interface Acc {
  /** key → the native sum of one of our series (divided by `divide` at the end: exact sums of integer nanoseconds). */
  readonly series: Map<string, { index: number; part: string; chain: string; extra: string; le: string; value: number; divide: number }>;
  specific: number;
}

/** The C-Chain VM a body shows: `sae` when it holds an SAE signal of the C-Chain, else `coreth` when it holds a Coreth one. */
export type CchainVm = NonNullable<NodeSignal['cchainVm']>;

/** Accumulates the samples of one /ext/metrics body, then yields our series. */
export class SignalPicker {
  private readonly acc = new Map<NamingScheme, Acc>(NAMING_SCHEMES.map((s) => [s, { series: new Map(), specific: 0 }]));
  /** C-Chain VMs whose signals the body holds. */
  private readonly vms = new Set<CchainVm>();

  constructor(private readonly index: SignalIndex) {}

  readonly wanted = (name: string): boolean => this.index.has(name);

  readonly add = (name: string, labels: TextLabels, value: number): void => {
    const entries = this.index.entries(name);
    if (!entries) return;
    for (const e of entries) this.addEntry(e, labels, value);
  };

  private addEntry(e: NameEntry, labels: TextLabels, value: number): void {
    const { signal, source } = e;
    if (source.where) {
      for (const [k, want] of Object.entries(source.where)) {
        const got = labels[k];
        if (want === '' ? got !== undefined : got !== want) return;
      }
    }
    if (source.requires && labels[source.requires] === undefined) return;
    // chain
    let chain = '';
    const native = labels['chain'];
    if (signal.perChain) {
      const raw = e.chain ?? source.chain ?? native;
      if (raw === undefined) return;
      const mapped = raw === 'all' && signal.chainAll ? 'all' : this.index.chainLabel.get(raw);
      if (mapped === undefined) return;
      if (source.onlyChain && mapped !== source.onlyChain) return;
      chain = mapped;
    } else if (source.onlyChain && native !== undefined && this.index.chainLabel.get(native) !== source.onlyChain) {
      return;
    }
    // The family is there, whatever its value (a sentinel included).
    if (signal.cchainVm) this.vms.add(signal.cchainVm);
    // extra label
    let extra = '';
    if (signal.extra) {
      const raw = source.extra?.value ?? (source.extra?.from === '<op>' ? e.op : source.extra?.from ? labels[source.extra.from] : undefined);
      if (raw === undefined) return;
      const v = signal.extraMap ? signal.extraMap[raw] : raw;
      if (v === undefined || !signal.extraValues?.includes(v)) return;
      extra = v;
    }
    // histogram bucket bound, in our unit
    let le = '';
    if (source.part === '_bucket') {
      const raw = labels['le'];
      const n = raw === '+Inf' ? Infinity : raw === undefined || raw.trim() === '' ? NaN : Number(raw);
      if (Number.isNaN(n)) return;
      le = n === Infinity ? '+Inf' : String(n / (signal.divide ?? 1));
    }
    // NaN and ±Inf carry no usable figure for any curated signal, nor does a sentinel: left out rather than summed.
    if (!Number.isFinite(value) || signal.sentinel?.(value)) return;
    const part = source.part ?? '';
    const divide = source.divide ?? signal.divide ?? 1;
    const key = `${e.index}\u0000${part}\u0000${chain}\u0000${extra}\u0000${le}`;
    for (const scheme of source.schemes) {
      const acc = this.acc.get(scheme)!;
      const s = acc.series.get(key);
      if (s) s.value += value;
      else if (acc.series.size < MAX_KEYS_PER_SCHEME) acc.series.set(key, { index: e.index, part, chain, extra, le, value, divide });
      if (e.specific) acc.specific++;
    }
  }

  /**
   * The scheme that matched (undefined: no scheme-specific name at all), the C-Chain VM (undefined: neither
   * seen) and our samples, without Coreth's once the C-Chain runs SAE (its registry stays exported, frozen).
   * `hint` is the scheme the node's version implies, used on a tie.
   */
  result(hint?: NamingScheme): { scheme: NamingScheme | undefined; cchainVm: CchainVm | undefined; samples: Sample[] } {
    let best: NamingScheme | undefined;
    let bestCount = 0;
    for (const s of [...NAMING_SCHEMES].reverse()) {
      const n = this.acc.get(s)!.specific;
      if (n > bestCount || (n === bestCount && n > 0 && s === hint)) {
        best = s;
        bestCount = n;
      }
    }
    const used = best ?? hint ?? 'v1.11.8';
    const cchainVm = this.vms.has('sae') ? 'sae' : this.vms.has('coreth') ? 'coreth' : undefined;
    return { scheme: best, cchainVm, samples: toSamples(this.acc.get(used)!, cchainVm) };
  }
}

type Row = Acc['series'] extends Map<string, infer R> ? R : never;

/**
 * A histogram is kept only whole and consistent: a +Inf bucket, _sum and _count, buckets that never
 * decrease with `le`, and +Inf equal to _count. Anything else (a truncated body, a mangled value) would
 * be an invalid or silently wrong histogram: that chain's histogram is left out.
 */
function completeHistograms(rows: readonly Row[]): Row[] {
  const groups = new Map<string, Row[]>();
  for (const r of rows) {
    if (NODE_SIGNALS[r.index]!.type !== 'histogram') continue;
    const k = `${r.index}\u0000${r.chain}\u0000${r.extra}`;
    const g = groups.get(k);
    if (g) g.push(r);
    else groups.set(k, [r]);
  }
  const bad = new Set<Row>();
  for (const g of groups.values()) {
    const buckets = g.filter((r) => r.part === '_bucket').sort((a, b) => leOrder(a.le) - leOrder(b.le) || 0);
    const inf = buckets.find((r) => r.le === '+Inf');
    const count = g.find((r) => r.part === '_count');
    const ok = inf !== undefined && count !== undefined && g.some((r) => r.part === '_sum') && inf.value === count.value && buckets.every((b, i) => i === 0 || b.value >= buckets[i - 1]!.value);
    if (!ok) for (const r of g) bad.add(r);
  }
  return bad.size === 0 ? [...rows] : rows.filter((r) => !bad.has(r));
}

function toSamples(acc: Acc, cchainVm: CchainVm | undefined): Sample[] {
  const rows = completeHistograms([...acc.series.values()].filter((r) => cchainVm !== 'sae' || NODE_SIGNALS[r.index]!.cchainVm !== 'coreth'));
  rows.sort((a, b) => a.index - b.index || cmp(a.chain, b.chain) || cmp(a.extra, b.extra) || partOrder(a.part) - partOrder(b.part) || leOrder(a.le) - leOrder(b.le));
  return rows.map((r) => {
    const signal = NODE_SIGNALS[r.index]!;
    const labels: Record<string, string> = {};
    if (signal.perChain) labels['chain'] = r.chain;
    if (signal.extra) labels[signal.extra] = r.extra;
    if (r.part === '_bucket') labels['le'] = r.le;
    return sample(signal.name + r.part, labels, r.divide === 1 ? r.value : r.value / r.divide);
  });
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
function partOrder(p: string): number {
  return p === '_bucket' ? 0 : p === '_sum' ? 1 : p === '_count' ? 2 : 3;
}
function leOrder(le: string): number {
  return le === '' ? 0 : le === '+Inf' ? Infinity : Number(le);
}
