import { sample, type Sample } from '../metrics/model.js';
import { ENDPOINTS, isNotFound, PRIMARY_NETWORK_ID, RpcError } from '../node-client/index.js';
import { HealthReport } from '../schemas/health.js';
import { InfoGetVMsResult, InfoIsBootstrappedResult } from '../schemas/info.js';
import {
  PlatformGetBlockchainStatusResult,
  PlatformGetBlockchainsResult,
  PlatformGetValidatorsAtResult,
  type BlockchainStatus,
  type PlatformBlockchain,
} from '../schemas/platform-chains.js';
import { defineCollector, type CollectorContext } from './define.js';
import { settleAll } from './support.js';

/**
 * Chains of the watched subnets and L1s (issue 14 item 1). platform.getBlockchains lists every chain
 * but the P-Chain; the ones of the watched subnets get their status (platform.getBlockchainStatus),
 * whether their VM plugin is installed (info.getVMs), their bootstrap state (info.isBootstrapped,
 * published for info-is-bootstrapped), the subnet's health (health.health with the subnet's tag) and
 * whether this node is in the subnet's validator set (platform.getValidatorsAt "proposed").
 *
 * Request budget: the first run asks everything (like the start-up cycle); after that each run asks
 * ONE item in turn (the chain list, the running chains, the VMs, one chain's status, ...), so a node
 * validating the primary network and one L1 is refreshed item by item over about 11 minutes without
 * ever adding more than one request to a cycle. A failed request drops every cached answer: the next
 * run asks everything again.
 */

/** The answers kept between runs (ctx.state), one per item. */
interface Cache {
  chains?: readonly PlatformBlockchain[];
  /** Chain IDs the node has a health check for: the chains it runs (or failed to build). */
  running?: ReadonlySet<string>;
  vms?: ReadonlySet<string>;
  status: Map<string, BlockchainStatus>;
  bootstrapped: Map<string, boolean>;
  healthy: Map<string, boolean>;
  /** Per subnet: is the node's own ID in its current validator set, is any watched ID. */
  members: Map<string, { own?: boolean; watched: boolean }>;
  cursor: number;
}

/** A chain of a watched subnet, as subnet-chains publishes it. */
export interface WatchedChain {
  readonly id: string;
  readonly subnet: string;
  readonly name: string;
  readonly vmId: string;
  /** info.isBootstrapped of a chain outside P, X, C (undefined for those, or not asked yet). */
  readonly bootstrapped?: boolean;
}

/** What subnet-chains publishes: the chains of the watched subnets (for info-is-bootstrapped). */
export interface SubnetChainsValue {
  readonly chains: readonly WatchedChain[];
}

declare module './define.js' {
  interface CollectorValues {
    'subnet-chains': SubnetChainsValue;
  }
}

const PRIMARY_ALIASES = new Set(['P', 'X', 'C']);

/**
 * The watched subnets: the configured ones (--node.subnet), the primary network when a watched NodeID
 * (--validator.node-id, else the node's own) is in its validator set, and every subnet one of whose
 * chains the node runs (the node registers a health check named after each chain ID it runs, tagged
 * with its subnet; a chain that failed to build keeps a failing one, chains/manager.go): an L1 the
 * node validates is found without configuration. Once found, a subnet stays watched for the
 * exporter's lifetime (`remembered`): a node that stops running the chain (subnet no longer tracked)
 * is what the alert is about. After an exporter restart such a node is found only with --node.subnet.
 */
export function watchedSubnets(configured: readonly string[], cache: Pick<Cache, 'chains' | 'running' | 'members'>, remembered: ReadonlySet<string> = new Set()): string[] {
  const out = new Set<string>([...remembered, ...configured]);
  if (cache.members.get(PRIMARY_NETWORK_ID)?.watched) out.add(PRIMARY_NETWORK_ID);
  for (const c of cache.chains ?? []) if (cache.running?.has(c.id)) out.add(c.subnetID);
  return [...out].sort((a, b) => (a === PRIMARY_NETWORK_ID ? -1 : b === PRIMARY_NETWORK_ID ? 1 : a < b ? -1 : 1));
}

/** One request of a pass. */
type Item =
  | { kind: 'chains' | 'running' | 'vms' }
  | { kind: 'status' | 'bootstrapped'; chain: string }
  | { kind: 'health' | 'members'; subnet: string };

/** What a pass needs to know about the target. */
interface PassTarget {
  readonly configuredChains: readonly string[];
  /** A reference target (public API): no node-specific call (getVMs, Health API). */
  readonly reference: boolean;
  /** NodeIDs whose primary-network membership decides whether the primary network is watched. */
  readonly watched: readonly string[];
}

/** The items that find the watched subnets: the chains the node runs and the primary network's validators. */
function discoveryItems(chains: readonly PlatformBlockchain[], t: PassTarget): Item[] {
  const items: Item[] = [];
  if (!t.reference && chains.some((c) => c.subnetID !== PRIMARY_NETWORK_ID)) items.push({ kind: 'running' });
  if (t.watched.length > 0) items.push({ kind: 'members', subnet: PRIMARY_NETWORK_ID });
  return items;
}

/** The items of one pass, in order: the chain list, discovery, then what is known of the watched subnets. */
export function passItems(subnets: readonly string[], chains: readonly PlatformBlockchain[], t: PassTarget): Item[] {
  const watched = new Set(subnets);
  const mine = chains.filter((c) => watched.has(c.subnetID));
  const items: Item[] = [{ kind: 'chains' }, ...discoveryItems(chains, t)];
  // info.getVMs and the Health API are node-specific: not asked of a reference target.
  if (!t.reference) items.push({ kind: 'vms' });
  for (const c of mine) items.push({ kind: 'status', chain: c.id });
  // P, X, C and the configured chains are info-is-bootstrapped's own calls.
  for (const c of mine) if (c.subnetID !== PRIMARY_NETWORK_ID && !t.configuredChains.includes(c.id)) items.push({ kind: 'bootstrapped', chain: c.id });
  if (!t.reference) for (const s of subnets) items.push({ kind: 'health', subnet: s });
  for (const s of subnets) if (s !== PRIMARY_NETWORK_ID) items.push({ kind: 'members', subnet: s });
  return items;
}

function emptyCache(): Cache {
  return { status: new Map(), bootstrapped: new Map(), healthy: new Map(), members: new Map(), cursor: 0 };
}

/** Absent (public server, Health API off: 404 or no such method) → undefined, a normal state. */
function orAbsent<T>(call: Promise<T>): Promise<T | undefined> {
  return call.catch((err: unknown) => {
    if (isNotFound(err)) return undefined;
    throw err;
  });
}

async function fetchItem(ctx: CollectorContext, cache: Cache, item: Item, t: PassTarget, ownId: () => string | undefined): Promise<void> {
  const opts = { signal: ctx.signal };
  const absentOk = { ...opts, normal: isNotFound };
  switch (item.kind) {
    case 'chains':
      cache.chains = (await ctx.client.rpc(ENDPOINTS.platform, 'platform.getBlockchains', {}, PlatformGetBlockchainsResult, opts)).blockchains;
      return;
    case 'running': {
      // health.health with every subnet's tag lists the chain checks the node registered (plus the
      // node-wide ones): the chains it runs, without asking about each chain.
      const tags = [...new Set((cache.chains ?? []).map((c) => c.subnetID).filter((s) => s !== PRIMARY_NETWORK_ID))].sort();
      const r = await orAbsent(ctx.client.rpc(ENDPOINTS.health, 'health.health', { tags }, HealthReport, absentOk));
      cache.running = new Set(Object.keys(r?.checks ?? {}));
      return;
    }
    case 'vms': {
      const r = await orAbsent(ctx.client.rpc(ENDPOINTS.info, 'info.getVMs', {}, InfoGetVMsResult, absentOk));
      cache.vms = r ? new Set(Object.keys(r.vms)) : undefined;
      return;
    }
    case 'status':
      cache.status.set(item.chain, (await ctx.client.rpc(ENDPOINTS.platform, 'platform.getBlockchainStatus', { blockchainID: item.chain }, PlatformGetBlockchainStatusResult, opts)).status);
      return;
    case 'bootstrapped': {
      // A chain the node does not run (not tracked, or it failed to build) is unknown to the chain
      // manager: a normal state here, reported as not bootstrapped (its status says Created).
      const r = await ctx.client
        .rpc(ENDPOINTS.info, 'info.isBootstrapped', { chain: item.chain }, InfoIsBootstrappedResult, { ...opts, normal: isUnknownChain })
        .catch((err: unknown) => {
          if (isUnknownChain(err)) return { isBootstrapped: false };
          throw err;
        });
      cache.bootstrapped.set(item.chain, r.isBootstrapped);
      return;
    }
    case 'health': {
      // JSON-RPC health.health {tags}: the same report as GET /ext/health?tag=<subnet> (AVALANCHEGO.md §3),
      // always HTTP 200, under its own method label (the health collector's GETs stay apart).
      const r = await orAbsent(ctx.client.rpc(ENDPOINTS.health, 'health.health', { tags: [item.subnet] }, HealthReport, absentOk));
      if (r) cache.healthy.set(item.subnet, r.healthy);
      else cache.healthy.delete(item.subnet);
      return;
    }
    case 'members': {
      // The subnet's current validator set (bare map NodeID -> weight; inactive L1 validators are not in it).
      const set = await ctx.client.rpc(ENDPOINTS.platform, 'platform.getValidatorsAt', { height: 'proposed', subnetID: item.subnet }, PlatformGetValidatorsAtResult, opts);
      const has = (id: string) => Object.prototype.hasOwnProperty.call(set, id);
      const own = ownId();
      cache.members.set(item.subnet, { own: own ? has(own) : undefined, watched: t.watched.some(has) });
      return;
    }
  }
}

/** Series of what is known: the chains of the watched subnets, their status, VM, subnet health and membership. */
export function toSamples(subnets: readonly string[], cache: Cache): Sample[] {
  const out: Sample[] = [];
  const watched = new Set(subnets);
  for (const c of cache.chains ?? []) {
    if (!watched.has(c.subnetID)) continue;
    const id = { blockchain_id: c.id };
    out.push(sample('avax_chain_info', { subnet: c.subnetID, blockchain_id: c.id, name: c.name, vm_id: c.vmID }, 1));
    const status = cache.status.get(c.id);
    if (status !== undefined) out.push(sample('avax_chain_status', { ...id, status }, 1));
    if (cache.vms) out.push(sample('avax_chain_vm_installed', { ...id, vm_id: c.vmID }, cache.vms.has(c.vmID) ? 1 : 0));
  }
  for (const s of subnets) {
    const h = cache.healthy.get(s);
    if (h !== undefined) out.push(sample('avax_subnet_healthy', { subnet: s }, h ? 1 : 0));
    const member = cache.members.get(s)?.own;
    if (member !== undefined) out.push(sample('avax_subnet_node_is_validator', { subnet: s }, member ? 1 : 0));
  }
  return out;
}

/** info.isBootstrapped of a chain the node does not run: `there is no chain with alias/ID '<id>'` (AVALANCHEGO.md §4). */
export function isUnknownChain(err: unknown): boolean {
  return err instanceof RpcError && /there is no chain with alias\/ID/.test(err.rpcMessage);
}

/** An item's identity within a pass. */
function itemKey(it: Item): string {
  return 'chain' in it ? `${it.kind}:${it.chain}` : 'subnet' in it ? `${it.kind}:${it.subnet}` : it.kind;
}

const CACHE_KEY = 'cache';
const SEEN_KEY = 'seen';

export const subnetChains = defineCollector({
  name: 'subnet-chains',
  description: 'Chains of the watched subnets/L1s (platform.getBlockchains): status, VM installed, bootstrapped, subnet health, one request per run in turn.',
  needs: 'P-Chain and Info API; info.getVMs and the Health API (node-specific: not on reference targets) find the L1s the node runs without --node.subnet',
  interval: 60,
  metrics: [
    { name: 'avax_chain_info', type: 'gauge', labels: ['subnet', 'blockchain_id', 'name', 'vm_id'], help: 'A chain of a watched subnet or L1 (platform.getBlockchains); value 1.' },
    { name: 'avax_chain_status', type: 'gauge', labels: ['blockchain_id', 'status'], help: 'platform.getBlockchainStatus of the chain (Validating, Created, Preferred, Syncing, Unknown); value 1.' },
    { name: 'avax_chain_vm_installed', type: 'gauge', labels: ['blockchain_id', 'vm_id'], help: '1 if the VM the chain runs is installed on the node (info.getVMs), 0 if not.' },
    { name: 'avax_subnet_healthy', type: 'gauge', labels: ['subnet'], help: "1 if the node's health report for the subnet's tag (its chains plus the node-wide checks) is healthy." },
    { name: 'avax_subnet_node_is_validator', type: 'gauge', labels: ['subnet'], help: "1 if the node's own NodeID (the answers' Node-Id header) is in the subnet's current validator set (platform.getValidatorsAt proposed), 0 if not." },
  ],
  calls: [
    { method: 'platform.getBlockchains' },
    { method: 'platform.getBlockchainStatus' },
    { method: 'info.getVMs' },
    // Only chains outside the primary network (P, X, C are info-is-bootstrapped's).
    { method: 'info.isBootstrapped', params: (p) => typeof p['chain'] === 'string' && !PRIMARY_ALIASES.has(p['chain']) && p['chain'].length > 40 },
    { method: 'health.health' },
    { method: 'platform.getValidatorsAt' },
  ],
  // Only collectors without reads of their own: a cycle runs in waves by `reads`, and a deeper chain
  // lengthens a cycle whose requests all time out (info-is-bootstrapped reads this one).
  // No reads: info-is-bootstrapped reads this collector, and a cycle runs in waves by `reads` (each
  // wave waits for its slowest request); the own NodeID comes from the answers' Node-Id header.
  // One item per run after the first (see above).
  requestsPerRun: () => 1,
  async collect(ctx) {
    // Every avalanchego answer names the node in its Node-Id header (unknown on a reference target).
    const ownId = () => (ctx.target.reference ? undefined : ctx.client.lastNodeIdHeader);
    const target = (): PassTarget => {
      const own = ownId();
      const configured = ctx.target.validatorNodeIds;
      const watched = configured.length > 0 ? [...configured, ...(ctx.target.expectActive && own ? [own] : [])] : own ? [own] : [];
      return { configuredChains: ctx.target.chains, reference: ctx.target.reference, watched };
    };
    const seen = (ctx.state.get(SEEN_KEY) as Set<string> | undefined) ?? new Set<string>();
    let cache = ctx.state.get(CACHE_KEY) as Cache | undefined;
    const errors: Error[] = [];
    const run = async (c: Cache, items: readonly Item[]) => {
      const t = target();
      for (const r of await settleAll(items.map((it) => fetchItem(ctx, c, it, t, ownId)))) if (!r.ok) errors.push(r.error);
    };
    if (!cache || !cache.chains) {
      // First pass: everything, in three steps (the chain list; what the node runs and the primary
      // network's validators; then the watched subnets' items).
      cache = emptyCache();
      await run(cache, [{ kind: 'chains' }]);
      if (errors.length === 0) await run(cache, discoveryItems(cache.chains ?? [], target()));
      if (errors.length === 0) {
        const first = new Set(['chains', 'running', `members:${PRIMARY_NETWORK_ID}`]);
        const rest = passItems(watchedSubnets(ctx.target.subnets, cache, seen), cache.chains ?? [], target()).filter((it) => !first.has(itemKey(it)));
        await run(cache, rest);
      }
    } else {
      const items = passItems(watchedSubnets(ctx.target.subnets, cache, seen), cache.chains, target());
      const item = items[cache.cursor % items.length]!;
      cache.cursor = (cache.cursor + 1) % items.length;
      await run(cache, [item]);
    }
    if (errors.length > 0) {
      // Nothing stale: a failed answer drops what is cached, and the next run asks everything again.
      ctx.state.delete(CACHE_KEY);
      return { samples: [], errors };
    }
    ctx.state.set(CACHE_KEY, cache);
    const subnets = watchedSubnets(ctx.target.subnets, cache, seen);
    for (const s of subnets) {
      if (!seen.has(s)) ctx.log.info({ subnet: s }, 'watching the chains of this subnet');
      seen.add(s);
    }
    ctx.state.set(SEEN_KEY, seen);
    const watchedSet = new Set(subnets);
    const c = cache;
    const chains: WatchedChain[] = (c.chains ?? [])
      .filter((x) => watchedSet.has(x.subnetID))
      .map((x) => ({ id: x.id, subnet: x.subnetID, name: x.name, vmId: x.vmID, bootstrapped: c.bootstrapped.get(x.id) }));
    return { value: { chains }, samples: toSamples(subnets, c), errors: [] };
  },
});
