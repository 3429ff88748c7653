import { describe, expect, it } from 'vitest';
import { mismatches, protocolMismatch, vmProtocol } from '../../src/derive/vm-protocol.js';
import { HealthReport } from '../../src/schemas/health.js';
import { SUBNET_L1 } from '../fixtures/ids.js';
import { snapshotWith } from './snapshot.js';

const L1_CHAIN = 'm5xoBqfy4oCFUPTsaeR7kcxt73qauBPoo8FPNoB7S8GXJ5tq5';
const VM = 'srEXiWaHuhNyGwPUi444Tu47ZEDwxTWrbQiuD7FmgSAQ6X7Dy';
/** The check chains/manager.go registers when the plugin's handshake fails (avalanchego v1.14.2 wording). */
const MISMATCH_ERROR = `failed to create chain on subnet ${SUBNET_L1}: error while creating vm: handshake failed: RPCChainVM protocol version mismatch between AvalancheGo and Virtual Machine plugin. AvalancheGo version v1.14.2 implements RPCChainVM protocol version 45. The VM located at /home/avalanche/.avalanchego/plugins/${VM} implements RPCChainVM protocol version 44. Please make sure that there is an exact match of the protocol versions. This can be achieved by updating your VM or running an older/newer version of AvalancheGo. Please be advised that some virtual machines may not yet support the latest RPCChainVM protocol version`;
const RAN = { timestamp: '2026-05-14T09:21:30Z', duration: 1000 };
const FAILED = (error: string) => ({ error, timestamp: '2026-05-14T09:21:30Z', duration: 0, contiguousFailures: 4, timeOfFirstFailure: '2026-05-14T09:20:00Z' });
const PENDING = { error: 'not yet run', timestamp: '0001-01-01T00:00:00Z', duration: 0 };
const report = (over: Record<string, object> = {}) => HealthReport.parse({ checks: { network: RAN, P: RAN, X: RAN, C: RAN, ...over }, healthy: Object.keys(over).length === 0 });
const watched = { subnets: [SUBNET_L1], chains: [{ id: L1_CHAIN, subnet: SUBNET_L1, name: 'l1', vmId: VM }], activeValidators: new Map(), l1Stakes: new Map() };
const derive = (health: HealthReport, chains = true) =>
  vmProtocol.derive(snapshotWith({ health: { health }, ...(chains ? { 'subnet-chains': watched } : {}) }), 0).map((s) => `${s.name}{${s.labels['chain']}} ${s.value}`);

describe('derive: VM protocol mismatch', () => {
  it('default: a normal node publishes 0 for P, X, C and the watched chains, and no VM version', () => {
    expect(derive(report())).toEqual(['avax_chain_vm_protocol_mismatch{P} 0', 'avax_chain_vm_protocol_mismatch{X} 0', 'avax_chain_vm_protocol_mismatch{C} 0', `avax_chain_vm_protocol_mismatch{${L1_CHAIN}} 0`]);
  });
  it("behavior: the L1 chain's check fails with the mismatch → 1 and the plugin's protocol version", () => {
    expect(derive(report({ [L1_CHAIN]: FAILED(MISMATCH_ERROR) }))).toEqual([
      'avax_chain_vm_protocol_mismatch{P} 0',
      'avax_chain_vm_protocol_mismatch{X} 0',
      'avax_chain_vm_protocol_mismatch{C} 0',
      `avax_chain_vm_protocol_mismatch{${L1_CHAIN}} 1`,
      `avax_chain_vm_rpc_protocol_version{${L1_CHAIN}} 44`,
    ]);
  });
  it('behavior: a chain the exporter does not watch (its subnet not configured) is published when its check reports the mismatch', () => {
    expect(derive(report({ [L1_CHAIN]: FAILED(MISMATCH_ERROR) }), false)).toContain(`avax_chain_vm_rpc_protocol_version{${L1_CHAIN}} 44`);
    expect(derive(report({ [L1_CHAIN]: FAILED(MISMATCH_ERROR) }), false)).toContain(`avax_chain_vm_protocol_mismatch{${L1_CHAIN}} 1`);
  });
  it('behavior: other chain-creation failures (VM not installed), other failing checks and a check not yet run are no mismatch', () => {
    const notRegistered = `failed to create chain on subnet ${SUBNET_L1}: error while getting vmFactory: "${VM}" was not registered as a vm`;
    expect(derive(report({ [L1_CHAIN]: FAILED(notRegistered), C: FAILED('not connected to enough stake: connected to 61.349253%; required at least 80.000000%') }))).not.toContain(`avax_chain_vm_protocol_mismatch{${L1_CHAIN}} 1`);
    expect(mismatches(report({ [L1_CHAIN]: PENDING })).size).toBe(0);
  });
  it('behavior: no health report → no series', () => {
    expect(vmProtocol.derive(snapshotWith({ 'subnet-chains': watched }), 0)).toEqual([]);
  });
  it('protocolMismatch reads both versions: the node first, the plugin last; the wording before the plugin path was named too', () => {
    expect(protocolMismatch(MISMATCH_ERROR)).toEqual({ node: 45, vm: 44 });
    const older = 'failed to create chain on subnet x: error while creating vm: handshake failed: RPCChainVM protocol version mismatch between AvalancheGo and Virtual Machine plugin. AvalancheGo version v1.10.9 implements RPCChainVM protocol version 28. The VM implements RPCChainVM protocol version 27. Please make sure that there is an exact match of the protocol versions.';
    expect(protocolMismatch(older)).toEqual({ node: 28, vm: 27 });
    expect(protocolMismatch('handshake failed: vm process not found')).toBeUndefined();
    expect(protocolMismatch('RPCChainVM protocol version mismatch between AvalancheGo and Virtual Machine plugin')).toBeUndefined();
    expect(protocolMismatch(undefined)).toBeUndefined();
  });
});
