// The chains the simulated node knows (platform.getBlockchains, getBlockchainStatus, info.getVMs,
// info.getNodeIP) and the issue-14 scenarios that change them: the L1 chain not tracked, its VM
// plugin missing, its chain check failing, the advertised IP changed.
// avalanchego v1.14.2: chains/manager.go (a chain that fails to build is not aliased and gets a
// failing health check tagged with its subnet), vms/platformvm/service.go GetBlockchainStatus
// (aliased: Validating when the node validates its subnet, else Syncing; not aliased but in the
// P-chain state: Created; else Unknown).
// Part of the simulated avalanchego node, an independent oracle ON PURPOSE: this package shares no
// code with the exporter (src/) and has its own CB58, JSON-RPC envelope and constants, so
// that a bug in the exporter's decoding cannot hide behind the same bug here. Do not "fix" this
// duplication (test/sim/independence.test.ts fails on any import from outside this package).
import { PRIMARY_SUBNET_ID, cb58Encode } from './avalanche-ids.js';
import { derivedBytes } from './deterministic-random.js';
import { C_CHAIN_ID, X_CHAIN_ID } from './mainnet-constants.js';
import type { Scenario } from './scenarios/scenario.js';

/** What this file needs of the node model (NodeModel satisfies it structurally). */
export interface ChainsModel {
  readonly seed: number;
  /** the active scenario (`l1.chain`, `info.nodeIp`) */
  readonly active: Scenario;
  readonly bootstrapped: boolean;
  readonly isValidator: boolean;
  readonly nodeIp: string;
  readonly l1SubnetId: string;
  readonly l1ChainId: string;
  /** the release the node runs (its RPCChainVM protocol, for the handshake error of l1-vm-protocol-mismatch) */
  readonly profile: { readonly version: string; readonly nodeVersion: { readonly rpcProtocolVersion: string } };
}

const AVM_VM_ID = 'jvYyfQTxGMJLuGWa55kdP2p2zSUYsQ5Raupu4TW34ZAUBAbtq';
const EVM_VM_ID = 'mgj786NP7uDwBCcq6YwThhaN8FLyybkCa4zBWTQbNgmK6k9A6';
const PLATFORM_VM_ID = 'rWhpuQPF1kb72esV2momhMuTYGkEb1oL29pt2EBXWmSy4kxnT';

/** The VM plugin of the simulated L1 chain (a seeded ID; a real L1 runs e.g. subnet-evm). */
export function l1VmId(m: ChainsModel): string {
  return cb58Encode(derivedBytes(`l1vm/${m.seed}`, 32));
}

/** The L1 chain is built and running: tracked, its VM installed, and the primary network bootstrapped. */
export function l1ChainRunning(m: ChainsModel): boolean {
  return m.bootstrapped && m.active.l1?.chain === undefined;
}

/** platform.getBlockchains: every chain except the P-Chain, from the P-chain state (mainnet names). */
export function blockchains(m: ChainsModel): { id: string; name: string; subnetID: string; vmID: string }[] {
  return [
    { id: X_CHAIN_ID, name: 'X-Chain', subnetID: PRIMARY_SUBNET_ID, vmID: AVM_VM_ID },
    { id: C_CHAIN_ID, name: 'C-Chain', subnetID: PRIMARY_SUBNET_ID, vmID: EVM_VM_ID },
    { id: m.l1ChainId, name: 'sim-l1', subnetID: m.l1SubnetId, vmID: l1VmId(m) },
  ];
}

/** getBlockchainStatus of a chain in the P-chain state that is not aliased on this node. */
export function createdStatus(m: ChainsModel, id: string): string | null {
  return blockchains(m).some((c) => c.id === id) ? 'Created' : null;
}

/**
 * info.getVMs vms: the built-in VMs and, unless not installed (l1-vm-missing), the L1's plugin (no alias). A plugin
 * whose handshake fails (l1-vm-protocol-mismatch) stays listed: vms/manager.go RegisterFactory stores the factory
 * before it starts the plugin once to ask its version.
 */
export function installedVms(m: ChainsModel): Record<string, string[]> {
  const vms: Record<string, string[]> = { [AVM_VM_ID]: ['avm'], [EVM_VM_ID]: ['evm'], [PLATFORM_VM_ID]: ['platform'] };
  if (m.active.l1?.chain !== 'vm-missing') vms[l1VmId(m)] = [];
  // A Go map is encoded with its keys sorted.
  return Object.fromEntries(Object.entries(vms).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** The L1 chain's health check: absent when the subnet is not tracked, failing when the chain did not build. */
export function l1ChainCheck(m: ChainsModel): 'absent' | 'build-failed' | 'running' {
  const chain = m.active.l1?.chain;
  if (!m.bootstrapped || chain === 'untracked') return 'absent';
  if (chain === 'vm-missing' || chain === 'vm-protocol-mismatch') return 'build-failed';
  return 'running';
}

/** The plugin of l1-vm-protocol-mismatch was built for the release before the node's (the usual case: avalanchego upgraded, the plugin not). */
export function l1VmProtocol(m: ChainsModel): number {
  return Number(m.profile.nodeVersion.rpcProtocolVersion) - 1;
}

/**
 * The error of the chain check registered for a chain that failed to build (chains/manager.go): the VM not
 * registered, or the plugin's handshake refused (vms/rpcchainvm/runtime/subprocess: runtime.go wraps
 * ErrHandshakeFailed around the initializer's error, which wraps ErrProtocolVersionMismatch and names the node's
 * version.Current (`v1.14.2`) and both protocol numbers).
 */
export function buildFailedError(m: ChainsModel): string {
  const prefix = `failed to create chain on subnet ${m.l1SubnetId}: `;
  if (m.active.l1?.chain !== 'vm-protocol-mismatch') return `${prefix}error while getting vmFactory: "${l1VmId(m)}" was not registered as a vm`;
  return (
    `${prefix}error while creating vm: handshake failed: RPCChainVM protocol version mismatch between AvalancheGo and Virtual Machine plugin. ` +
    `AvalancheGo version v${m.profile.version} implements RPCChainVM protocol version ${m.profile.nodeVersion.rpcProtocolVersion}. ` +
    `The VM located at /home/avalanche/.avalanchego/plugins/${l1VmId(m)} implements RPCChainVM protocol version ${l1VmProtocol(m)}. ` +
    'Please make sure that there is an exact match of the protocol versions. This can be achieved by updating your VM or running an older/newer version of AvalancheGo. ' +
    'Please be advised that some virtual machines may not yet support the latest RPCChainVM protocol version'
  );
}

/** info.getNodeIP: the address the node advertises; another one after ip-changed (a new DHCP lease, a moved host). */
export function advertisedIp(m: ChainsModel): string {
  const changed = m.active.info?.nodeIp;
  return changed ? changed(m.nodeIp) : m.nodeIp;
}
