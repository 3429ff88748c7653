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
import { defineCollector, type CollectorContext, type CollectorValues } from './define.js';
import { settle, settleAll } from './support.js';

/**
 * Chains of the watched subnets and L1s (issue 14 item 1). platform.getBlockchains lists every chain
 * but the P-Chain; the ones of the watched subnets get their status (platform.getBlockchainStatus),
 * whether their VM plugin is installed (info.getVMs), their bootstrap state (info.isBootstrapped,
 * published for info-is-bootstrapped), the subnet's health (health.health with the subnet's tag) and,
 * for an L1 found without configuration, whether this node is in its validator set
 * (platform.getValidatorsAt "proposed").
 *
 * Request budget: the first run asks everything at once (like the start-up cycle); after that each
 * run asks ONE item in turn (its chains list, the VMs, one chain's status, ...), so a default node (X,
 * C and one L1) is refreshed item by item over about 8 minutes without ever adding more than one
 * request to a cycle. A failed request drops every cached answer: the next run asks everything again.
 */

/** The answers kept between runs (ctx.state), one per item key. */
interface Cache {
  chains?: readonly PlatformBlockchain[];
  vms?: ReadonlySet<string>;
  status: Map<string, BlockchainStatus>;
  bootstrapped: Map<string, boolean>;
  healthy: Map<string, boolean>;
  members: Map<string, boolean>;
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

// Other collectors' values, through the declaration map (a collector never imports another one).
type HealthValue = CollectorValues['health'];
type PlatformValidatorsValue = CollectorValues['platform-validators'];

const PRIMARY_ALIASES = new Set(['P', 'X', 'C']);

/**
 * The watched subnets: the configured ones (--node.subnet), the primary network when a watched
 * validator is active on it (platform-validators), and every subnet one of whose chains the node runs (the node registers a health check named after each chain ID it runs, tagged with its
 * subnet: an L1 the node validates is found without configuration; a chain that failed to build
 * keeps a failing check, chains/manager.go). Once found, a subnet stays watched for the exporter's
 * lifetime (`remembered`): a node that stops running the chain (subnet no longer tracked) is what the
 * alert is about. Found only while running: after an exporter restart such a node needs --node.subnet.
 */
export function watchedSubnets(
  configured: readonly string[],
  validators: PlatformValidatorsValue | undefined,
  health: HealthValue | undefined,
  chains: readonly PlatformBlockchain[],
  remembered: ReadonlySet<string> = new Set(),
): string[] {
  const out = new Set<string>([...remembered, ...configured]);
  const primary = validators?.sets.find((s) => s.subnet === PRIMARY_NETWORK_ID);
  if (primary && primary.validators.some((v) => primary.watched.includes(v.nodeID))) out.add(PRIMARY_NETWORK_ID);
  const running = new Set(Object.keys(health?.health?.checks ?? {}));
  for (const c of chains) if (running.has(c.id)) out.add(c.subnetID);
  return [...out].sort((a, b) => (a === PRIMARY_NETWORK_ID ? -1 : b === PRIMARY_NETWORK_ID ? 1 : a < b ? -1 : 1));
}

/** One request of a pass: its cache key and the call. */
type Item = { kind: 'chains' } | { kind: 'vms' } | { kind: 'status' | 'bootstrapped'; chain: string } | { kind: 'health' | 'members'; subnet: string };

/** The items of one pass, in order (after the chain list, which a pass needs first). */
export function passItems(subnets: readonly string[], chains: readonly PlatformBlockchain[], configuredChains: readonly string[], reference = false): Item[] {
  const watched = new Set(subnets);
  const mine = chains.filter((c) => watched.has(c.subnetID));
  // info.getVMs and the Health API are node-specific: not asked of a reference target (public API).
  const items: Item[] = reference ? [{ kind: 'chains' }] : [{ kind: 'chains' }, { kind: 'vms' }];
  for (const c of mine) items.push({ kind: 'status', chain: c.id });
  // P, X, C and the configured chains are info-is-bootstrapped's own calls.
  for (const c of mine) if (c.subnetID !== PRIMARY_NETWORK_ID && !configuredChains.includes(c.id)) items.push({ kind: 'bootstrapped', chain: c.id });
  if (!reference) for (const s of subnets) items.push({ kind: 'health', subnet: s });
  // Membership of an L1 (the primary network's: platform-validators' value).
  for (const s of subnets) if (s !== PRIMARY_NETWORK_ID) items.push({ kind: 'members', subnet: s });
  return items;
}

function emptyCache(): Cache {
  return { status: new Map(), bootstrapped: new Map(), healthy: new Map(), members: new Map(), cursor: 0 };
}

async function fetchItem(ctx: CollectorContext, cache: Cache, item: Item, ownId: string | undefined): Promise<void> {
  const opts = { signal: ctx.signal };
  switch (item.kind) {
    case 'chains':
      cache.chains = (await ctx.client.rpc(ENDPOINTS.platform, 'platform.getBlockchains', {}, PlatformGetBlockchainsResult, opts)).blockchains;
      return;
    case 'vms': {
      // Absent (public server, 404 or no such method): a normal state, no avax_chain_vm_installed.
      const r = await ctx.client.rpc(ENDPOINTS.info, 'info.getVMs', {}, InfoGetVMsResult, { ...opts, normal: isNotFound }).catch((err: unknown) => {
        if (isNotFound(err)) return undefined;
        throw err;
      });
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
      // Health API off (404): a normal state, no avax_subnet_healthy.
      const r = await ctx.client.rpc(ENDPOINTS.health, 'health.health', { tags: [item.subnet] }, HealthReport, { ...opts, normal: isNotFound }).catch((err: unknown) => {
        if (isNotFound(err)) return undefined;
        throw err;
      });
      if (r) cache.healthy.set(item.subnet, r.healthy);
      else cache.healthy.delete(item.subnet);
      return;
    }
    case 'members': {
      if (!ownId) return;
      const set = await ctx.client.rpc(ENDPOINTS.platform, 'platform.getValidatorsAt', { height: 'proposed', subnetID: item.subnet }, PlatformGetValidatorsAtResult, opts);
      cache.members.set(item.subnet, Object.prototype.hasOwnProperty.call(set, ownId));
      return;
    }
  }
}

/** Series of what is known: the chains of the watched subnets, their status, VM, subnet health and membership. */
export function toSamples(subnets: readonly string[], cache: Cache, primaryMember: boolean | undefined): Sample[] {
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
    const member = s === PRIMARY_NETWORK_ID ? primaryMember : cache.members.get(s);
    if (member !== undefined) out.push(sample('avax_subnet_node_is_validator', { subnet: s }, member ? 1 : 0));
  }
  return out;
}

/** info.isBootstrapped of a chain the node does not run: `there is no chain with alias/ID '<id>'` (AVALANCHEGO.md §4). */
export function isUnknownChain(err: unknown): boolean {
  return err instanceof RpcError && /there is no chain with alias\/ID/.test(err.rpcMessage);
}

const CACHE_KEY = 'cache';
const SEEN_KEY = 'seen';

export const subnetChains = defineCollector({
  name: 'subnet-chains',
  description: 'Chains of the watched subnets/L1s (platform.getBlockchains): status, VM installed, bootstrapped, subnet health, one request per run in turn.',
  needs: 'P-Chain and Info API (info.getVMs is node-specific); without --node.subnet, the L1s found from the health checks (health collector)',
  interval: 60,
  metrics: [
    { name: 'avax_chain_info', type: 'gauge', labels: ['subnet', 'blockchain_id', 'name', 'vm_id'], help: 'A chain of a watched subnet or L1 (platform.getBlockchains); value 1.' },
    { name: 'avax_chain_status', type: 'gauge', labels: ['blockchain_id', 'status'], help: 'platform.getBlockchainStatus of the chain (Validating, Created, Preferred, Syncing, Unknown); value 1.' },
    { name: 'avax_chain_vm_installed', type: 'gauge', labels: ['blockchain_id', 'vm_id'], help: '1 if the VM the chain runs is installed on the node (info.getVMs), 0 if not.' },
    { name: 'avax_subnet_healthy', type: 'gauge', labels: ['subnet'], help: "1 if the node's health report for the subnet's tag (its chains plus the node-wide checks) is healthy." },
    { name: 'avax_subnet_node_is_validator', type: 'gauge', labels: ['subnet'], help: "1 if the node's own NodeID is a current validator of the subnet (primary: platform-validators; L1: platform.getValidatorsAt proposed), 0 if not." },
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
  reads: ['node-info', 'platform-validators', 'health'],
  // One item per run after the first (see above).
  requestsPerRun: () => 1,
  async collect(ctx) {
    const own = ctx.read('node-info')?.nodeId;
    const validators = ctx.read('platform-validators');
    let cache = ctx.state.get(CACHE_KEY) as Cache | undefined;
    const errors: Error[] = [];
    const seen = (ctx.state.get(SEEN_KEY) as Set<string> | undefined) ?? new Set<string>();
    const subnetsOf = (c: Cache) => watchedSubnets(ctx.target.subnets, validators, ctx.read('health'), c.chains ?? [], seen);
    if (!cache || !cache.chains) {
      // First pass: everything (the chain list first: the other items depend on it).
      cache = emptyCache();
      const first = await settle(fetchItem(ctx, cache, { kind: 'chains' }, own));
      if (!first.ok) return { samples: [], errors: [first.error] };
      const items = passItems(subnetsOf(cache), cache.chains ?? [], ctx.target.chains, ctx.target.reference).slice(1);
      const c = cache;
      const settled = await settleAll(items.map((it) => fetchItem(ctx, c, it, own)));
      for (const r of settled) if (!r.ok) errors.push(r.error);
    } else {
      const items = passItems(subnetsOf(cache), cache.chains, ctx.target.chains, ctx.target.reference);
      const item = items[cache.cursor % items.length]!;
      cache.cursor = (cache.cursor + 1) % items.length;
      const r = await settle(fetchItem(ctx, cache, item, own));
      if (!r.ok) errors.push(r.error);
    }
    if (errors.length > 0) {
      // Nothing stale: a failed answer drops what is cached, and the next run asks everything again.
      ctx.state.delete(CACHE_KEY);
      return { samples: [], errors };
    }
    ctx.state.set(CACHE_KEY, cache);
    const subnets = subnetsOf(cache);
    for (const s of subnets) {
      if (!seen.has(s)) ctx.log.info({ subnet: s }, 'watching the chains of this subnet');
      seen.add(s);
    }
    ctx.state.set(SEEN_KEY, seen);
    const primaryMember = primaryMembership(validators, own);
    const watched = new Set(subnets);
    const chains: WatchedChain[] = (cache.chains ?? [])
      .filter((c) => watched.has(c.subnetID))
      .map((c) => ({ id: c.id, subnet: c.subnetID, name: c.name, vmId: c.vmID, bootstrapped: cache.bootstrapped.get(c.id) }));
    return { value: { chains }, samples: toSamples(subnets, cache, primaryMember), errors: [] };
  },
});

/** Whether the own NodeID is an active primary-network validator; undefined when platform-validators does not watch it. */
function primaryMembership(v: PlatformValidatorsValue | undefined, own: string | undefined): boolean | undefined {
  const set = v?.sets.find((s) => s.subnet === PRIMARY_NETWORK_ID);
  if (!set || !own || !set.watched.includes(own)) return undefined;
  return set.validators.some((x) => x.nodeID === own);
}
