import { gauge, sample, type Sample } from '../model.js';
import { ENDPOINTS, failures, rpcCall } from '../node-client/index.js';
import { PRIMARY_NETWORK_ID } from '../avalanche.js';
import { InfoGetVMsResult } from '../schemas/info.js';
import { isActive, isL1Validator, PlatformGetCurrentValidatorsLean, type PlatformValidatorUsed } from '../schemas/platform.js';
import { PlatformGetBlockchainStatusResult, PlatformGetBlockchainsLean, type BlockchainStatus, type PlatformBlockchain } from '../schemas/platform-chains.js';
import { defineCollector, type CollectorOf } from './define.js';

/**
 * Chains of the watched subnets and L1s (issues 14 and 23). platform.getBlockchains lists every chain
 * but the P-Chain (the same from every node: asked once per network). The watched subnets are the
 * configured ones (--node.subnet), the primary network when a watched NodeID validates it, and every
 * subnet one of whose chains the node runs: the node registers a health check named after each chain
 * ID it runs (or failed to build), so an L1 the node validates is found with no flag, from the health
 * collector's last report, without a request. Once found, a subnet stays watched for the exporter's
 * lifetime: a node that stops running the chain is what the alerts are about.
 *
 * Every run asks everything it shows (no rotation, no cache): each watched chain's status, the VMs the
 * node has (one info.getVMs for all), and each watched L1's validator list (network-scoped: once per
 * network), which gives the node's own membership and the count of active validators. A node restart
 * refreshes every collector at once (scheduler), so nothing shown is older than one interval or the
 * last restart. The subnet's health is derived every cycle from the health collector's report
 * (derive/subnet-healthy.ts); the watched IDs' L1 entries (balance, active) are platform-validators'
 * (every cycle). Each L1's weights and balances are published for the share of its weight at risk
 * (derive/l1-weight-at-risk.ts).
 */

/** A chain of a watched subnet, as subnet-chains publishes it. */
export interface WatchedChain {
  readonly id: string;
  readonly subnet: string;
  readonly name: string;
  readonly vmId: string;
}

/** An L1 validator of a watched L1 as derive/l1-weight-at-risk.ts needs it (from the L1's validator list). */
export interface L1Stake {
  readonly weight: bigint;
  /** nAVAX left to pay the continuous fee; 0 = inactive */
  readonly balance: bigint;
}

/** What subnet-chains publishes: the watched subnets, their chains and their active validator counts. */
export interface SubnetChainsValue {
  /** Watched subnets, the primary network first. */
  readonly subnets: readonly string[];
  /** The chains of the watched subnets (never the P-Chain). */
  readonly chains: readonly WatchedChain[];
  /** Active validators of each watched subnet but the primary network (whose count is platform-validators-full's). */
  readonly activeValidators: ReadonlyMap<string, number>;
  /** Per watched L1: the weight and balance of each of its L1 validators (a permissioned subnet: none listed). */
  readonly l1Stakes: ReadonlyMap<string, readonly L1Stake[]>;
}

/** The L1 validators of a list (validationID or balance), with weight and balance; the legacy entries are not. */
export function l1Stakes(validators: readonly PlatformValidatorUsed[]): L1Stake[] {
  const out: L1Stake[] = [];
  for (const v of validators) if (isL1Validator(v) && v.weight !== undefined && v.balance !== undefined) out.push({ weight: v.weight, balance: v.balance });
  return out;
}

export const platformGetBlockchainsCall = rpcCall({ method: 'platform.getBlockchains', endpoint: ENDPOINTS.platform, result: PlatformGetBlockchainsLean, scope: 'network' });
export const platformGetBlockchainStatusCall = rpcCall({
  method: 'platform.getBlockchainStatus',
  endpoint: ENDPOINTS.platform,
  wire: (blockchainID: string) => ({ blockchainID }),
  result: PlatformGetBlockchainStatusResult,
});
export const infoGetVMsCall = rpcCall({ method: 'info.getVMs', endpoint: ENDPOINTS.info, result: InfoGetVMsResult, absent: 'public API servers do not expose it: no avax_chain_vm_installed' });
/** Every validator of a subnet other than the primary network (small: an L1's or a permissioned subnet's). */
export const getSubnetValidatorsCall = rpcCall({
  method: 'platform.getCurrentValidators',
  endpoint: ENDPOINTS.platform,
  wire: (subnetID: string) => ({ subnetID }),
  result: PlatformGetCurrentValidatorsLean,
  recognise: (p) => !Array.isArray(p['nodeIDs']) && typeof p['subnetID'] === 'string' && p['subnetID'] !== PRIMARY_NETWORK_ID,
  scope: 'network',
});

/** What decides the watched subnets. */
export interface WatchInputs {
  readonly configured: readonly string[];
  readonly chains: readonly PlatformBlockchain[];
  /** Names of the node's health checks (undefined: unknown, e.g. a public server without Health API). */
  readonly checks?: ReadonlySet<string>;
  /** A watched NodeID is a current primary-network validator (undefined: unknown). */
  readonly primaryValidator?: boolean;
  /** Subnets watched before (kept for the exporter's lifetime). */
  readonly remembered: ReadonlySet<string>;
}

/** The watched subnets, the primary network first, then in ID order. */
export function watchedSubnets(w: WatchInputs): string[] {
  const out = new Set<string>([...w.remembered, ...w.configured]);
  if (w.primaryValidator) out.add(PRIMARY_NETWORK_ID);
  for (const c of w.chains) if (w.checks?.has(c.id)) out.add(c.subnetID);
  return [...out].sort((a, b) => (a === PRIMARY_NETWORK_ID ? -1 : b === PRIMARY_NETWORK_ID ? 1 : a < b ? -1 : 1));
}

/** What one run learned, for toSamples. */
export interface ChainsSeen {
  readonly subnets: readonly string[];
  readonly chains: readonly PlatformBlockchain[];
  readonly status: ReadonlyMap<string, BlockchainStatus>;
  /** VM IDs the node has (undefined: not asked or not answered). */
  readonly vms?: ReadonlySet<string>;
  /** Per subnet: is the node's own NodeID an active validator of it (absent: unknown). */
  readonly member: ReadonlyMap<string, boolean>;
}

/** Series of the watched subnets' chains (info, status, VM installed) and of the node's membership. */
export function toSamples(s: ChainsSeen): Sample[] {
  const out: Sample[] = [];
  // Chains of the watched subnets but the primary network (its chains are the other collectors').
  const watched = new Set(s.subnets.filter((x) => x !== PRIMARY_NETWORK_ID));
  for (const c of s.chains) {
    if (!watched.has(c.subnetID)) continue;
    const id = { blockchain_id: c.id };
    out.push(sample('avax_chain_info', { subnet: c.subnetID, blockchain_id: c.id, name: c.name, vm_id: c.vmID }, 1));
    const status = s.status.get(c.id);
    if (status !== undefined) out.push(sample('avax_chain_status', { ...id, status }, 1));
    if (s.vms) out.push(sample('avax_chain_vm_installed', { ...id, vm_id: c.vmID }, s.vms.has(c.vmID) ? 1 : 0));
  }
  for (const subnet of s.subnets) {
    const member = s.member.get(subnet);
    if (member !== undefined) out.push(sample('avax_subnet_node_is_validator', { subnet }, member ? 1 : 0));
  }
  return out;
}

/** The IDs whose primary-network membership decides whether the primary network is watched. */
function watchedIds(configured: readonly string[], expectActive: boolean | undefined, own: string | undefined): string[] {
  if (configured.length > 0) return [...configured, ...(expectActive && own ? [own] : [])];
  return own ? [own] : [];
}

function ownActive(validators: readonly PlatformValidatorUsed[], own: string): boolean {
  return validators.some((v) => v.nodeID === own && isActive(v));
}

export const subnetChains: CollectorOf<'subnet-chains', SubnetChainsValue> = defineCollector({
  name: 'subnet-chains',
  description: 'Chains of the watched subnets and L1s (found by themselves: the chains the node runs): status, VM installed, membership, active validators.',
  needs: 'P-Chain and Info API; the health collector finds the L1s the node runs (not on reference targets); info.getVMs is node-specific',
  // Every 5 minutes, and at once after the exporter starts or the node restarts (the engine's refresh):
  // the chain list, the VMs and the chains' status change with a restart or a P-Chain transaction; the
  // subnet's health, which changes on its own, is derived every cycle from the health collector.
  interval: 300,
  metrics: [
    gauge('avax_chain_info', 'A chain of a watched subnet or L1 other than the primary network (platform.getBlockchains); value 1.', ['subnet', 'blockchain_id', 'name', 'vm_id']),
    gauge('avax_chain_status', 'platform.getBlockchainStatus of the chain (Validating, Created, Preferred, Syncing, Unknown); value 1.', ['blockchain_id', 'status']),
    gauge('avax_chain_vm_installed', '1 if the VM the chain runs is installed on the node (info.getVMs), 0 if not.', ['blockchain_id', 'vm_id']),
    gauge('avax_subnet_node_is_validator', "1 if the node's own NodeID is an active validator of the subnet (its current validator list; the primary network's from platform-validators-full), 0 if not.", ['subnet']),
  ],
  calls: [platformGetBlockchainsCall, platformGetBlockchainStatusCall, infoGetVMsCall, getSubnetValidatorsCall],
  // The last values, without waiting for them in a cycle: the own NodeID, the node's health checks (the
  // chains it runs) and the primary network's validators.
  readsLatest: ['node-info', 'health', 'platform-validators-full'],
  // Subnets watched before stay watched (logged once when found).
  memory: () => ({ remembered: new Set<string>() }),
  requestsPerRun: (t) => 3 + t.subnets.length,
  async collect(ctx) {
    const list = await ctx.call(platformGetBlockchainsCall, undefined);
    if (!list.ok) return { samples: [], errors: [list.error] };
    const chains = list.value.blockchains;
    const own = ctx.target.reference ? undefined : ctx.read('node-info')?.nodeId || undefined;
    const ids = watchedIds(ctx.target.validatorNodeIds, ctx.target.expectActive, own);
    const primarySet = ctx.read('platform-validators-full')?.primaryValidators;
    const report = ctx.target.reference ? undefined : ctx.read('health')?.health;
    const subnets = watchedSubnets({
      configured: ctx.target.subnets,
      chains,
      checks: report ? new Set(Object.keys(report.checks)) : undefined,
      primaryValidator: primarySet ? ids.some((id) => primarySet.has(id)) : undefined,
      remembered: ctx.memory.remembered,
    });
    for (const s of subnets) {
      if (ctx.memory.remembered.has(s)) continue;
      ctx.memory.remembered.add(s);
      ctx.log.info({ subnet: s }, 'watching the chains of this subnet');
    }
    // The chains of the watched subnets but the primary network (P, X and C are the other collectors').
    const watched = new Set(subnets.filter((s) => s !== PRIMARY_NETWORK_ID));
    const mine = chains.filter((c) => watched.has(c.subnetID));
    const others = subnets.filter((s) => s !== PRIMARY_NETWORK_ID);
    const [vms, statuses, lists] = await Promise.all([
      // info.getVMs is node-specific: not asked of a reference target, nor when no chain needs it.
      ctx.target.reference || mine.length === 0 ? undefined : ctx.call(infoGetVMsCall, undefined),
      Promise.all(mine.map((c) => ctx.call(platformGetBlockchainStatusCall, c.id))),
      Promise.all(others.map((s) => ctx.call(getSubnetValidatorsCall, s))),
    ]);
    const status = new Map<string, BlockchainStatus>();
    statuses.forEach((r, i) => r.ok && status.set(mine[i]!.id, r.value.status));
    const member = new Map<string, boolean>();
    if (own && primarySet) member.set(PRIMARY_NETWORK_ID, primarySet.has(own));
    const activeValidators = new Map<string, number>();
    const stakes = new Map<string, readonly L1Stake[]>();
    lists.forEach((r, i) => {
      if (!r.ok) return;
      const subnet = others[i]!;
      activeValidators.set(subnet, r.value.validators.filter(isActive).length);
      const l1 = l1Stakes(r.value.validators);
      if (l1.length > 0) stakes.set(subnet, l1);
      if (own) member.set(subnet, ownActive(r.value.validators, own));
    });
    const seen: ChainsSeen = { subnets, chains, status, vms: vms?.ok ? new Set(Object.keys(vms.value.vms)) : undefined, member };
    const value: SubnetChainsValue = {
      subnets,
      chains: mine.map((c) => ({ id: c.id, subnet: c.subnetID, name: c.name, vmId: c.vmID })),
      activeValidators,
      l1Stakes: stakes,
    };
    return { value, samples: toSamples(seen), errors: failures([...(vms ? [vms] : []), ...statuses, ...lists]) };
  },
});
