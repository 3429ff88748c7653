import { gauge, sample, type Sample } from '../model.js';
import { isPending, type HealthReport } from '../schemas/health.js';
import { valueOf } from '../snapshot.js';
import { defineDerivation } from './define.js';

/** The primary network's chains: their health checks are named after their aliases (docs/avalanchego-wire.md §3). */
const PRIMARY_CHAINS = ['P', 'X', 'C'];

/**
 * The text of avalanchego's runtime.ErrProtocolVersionMismatch (vms/rpcchainvm/runtime/runtime.go), which the
 * subprocess initializer wraps with both versions (vms/rpcchainvm/runtime/subprocess/initializer.go):
 * `<that>. AvalancheGo version v1.14.2 implements RPCChainVM protocol version 45. The VM located at <path>
 * implements RPCChainVM protocol version 44. Please make sure ...` (before the path was added: `The VM implements
 * RPCChainVM protocol version 44`). The node's version comes first, the plugin's last.
 */
const MISMATCH = 'RPCChainVM protocol version mismatch';
const IMPLEMENTS = /implements RPCChainVM protocol version (\d+)/g;

export interface ProtocolMismatch {
  /** The protocol the node implements (version.RPCChainVMProtocol), as the error states it. */
  readonly node: number;
  /** The protocol the VM plugin implements. */
  readonly vm: number;
}

/**
 * The two versions of a chain check's error when the chain could not be created because its VM plugin speaks
 * another RPCChainVM protocol: chains/manager.go registers a check that always fails with
 * `failed to create chain on subnet <id>: error while creating vm: handshake failed: <the mismatch error>`.
 * Undefined for any other error (or when a version cannot be read).
 */
export function protocolMismatch(error: string | null | undefined): ProtocolMismatch | undefined {
  if (!error?.includes(MISMATCH)) return undefined;
  const versions = [...error.matchAll(IMPLEMENTS)].map((m) => Number(m[1]));
  if (versions.length < 2) return undefined;
  return { node: versions[0]!, vm: versions[versions.length - 1]! };
}

/** Per chain check name: the mismatch its error reports (only the failing, already run checks). */
export function mismatches(report: HealthReport): Map<string, ProtocolMismatch> {
  const out = new Map<string, ProtocolMismatch>();
  for (const [name, r] of Object.entries(report.checks)) {
    if (isPending(r)) continue;
    const m = protocolMismatch(r.error);
    if (m) out.set(name, m);
  }
  return out;
}

/**
 * VM protocol compatibility (issue 27 item 6) from the node's health report, no request of its own: a chain
 * whose VM plugin implements another RPCChainVM protocol than the node is not created, and its health check
 * (named after the chain's alias or ID) fails with the mismatch error for as long as the process runs.
 * avax_chain_vm_protocol_mismatch is published for P, X, C, the chains of the watched subnets and every chain
 * whose check reports a mismatch: 0 is the normal state (no mismatch reported), never absent while the health
 * report is there. avax_chain_vm_rpc_protocol_version exists only for a chain that failed that way.
 */
export const vmProtocol = defineDerivation({
  name: 'vm-protocol',
  reads: ['health', 'subnet-chains'],
  metrics: [
    gauge('avax_chain_vm_protocol_mismatch', "1 if the chain could not be created because its VM plugin implements another RPCChainVM protocol than the node (the chain's health check fails with avalanchego's protocol version mismatch error, GET /ext/health), 0 otherwise; for P, X, C, the chains of the watched subnets and any chain whose check reports the mismatch.", ['chain']),
    gauge('avax_chain_vm_rpc_protocol_version', "RPCChainVM protocol version the chain's VM plugin implements, as stated by the chain's failing health check; only for a chain whose VM protocol does not match the node's (compare avax_node_rpc_protocol_version).", ['chain']),
  ],
  derive(s): Sample[] {
    const report = valueOf(s, 'health')?.health;
    if (!report) return [];
    const found = mismatches(report);
    const chains = [...new Set([...PRIMARY_CHAINS, ...(valueOf(s, 'subnet-chains')?.chains ?? []).map((c) => c.id), ...[...found.keys()].sort()])];
    const out = chains.map((chain) => sample('avax_chain_vm_protocol_mismatch', { chain }, found.has(chain) ? 1 : 0));
    for (const [chain, m] of [...found].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) out.push(sample('avax_chain_vm_rpc_protocol_version', { chain }, m.vm));
    return out;
  },
});
