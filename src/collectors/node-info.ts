import { sample, type Sample } from '../metrics/model.js';
import { ENDPOINTS, isNotFound } from '../node-client/index.js';
import {
  InfoGetNetworkIDResult,
  InfoGetNetworkNameResult,
  InfoGetNodeIDResult,
  InfoGetNodeVersionResult,
} from '../schemas/info.js';
import { defineCollector, type CollectorValues } from './define.js';
import { failures, onChange, settleAll } from './support.js';

/** What node-info publishes: the node's identity, for platform-validators and the derivations. */
export interface NodeInfoValue {
  /** '' when info.getNodeID is absent (public server) or skipped (reference target); undefined until known. */
  readonly nodeId?: string;
  /** The node's BLS public key (info.getNodeID nodePOP.publicKey, lower case); '' when it has none. */
  readonly blsPublicKey?: string;
  /** info.getNodeVersion, when it answered. */
  readonly version?: InfoGetNodeVersionResult;
}

// The advertised address comes from node-ip (info.getNodeIP), read without waiting for it.
type NodeIpValue = CollectorValues['node-ip'];

declare module './define.js' {
  interface CollectorValues {
    'node-info': NodeInfoValue;
  }
}

export interface NodeIdentity {
  /** '' when info.getNodeID is absent (public server) or skipped (reference target). */
  readonly nodeId: string;
  readonly version: InfoGetNodeVersionResult;
  readonly networkId: InfoGetNetworkIDResult;
  readonly networkName: InfoGetNetworkNameResult;
  /** Advertised ip:port (node-ip, info.getNodeIP); '' when unknown, absent, or node-ip is off. */
  readonly ip?: string;
}

/** avax_node_info and one avax_node_vm_info per vmVersions entry. */
export function toSamples(v: NodeIdentity): Sample[] {
  const out: Sample[] = [
    sample(
      'avax_node_info',
      {
        node_id: v.nodeId,
        version: v.version.version,
        database_version: v.version.databaseVersion,
        git_commit: v.version.gitCommit,
        rpc_protocol_version: v.version.rpcProtocolVersion,
        network_id: String(v.networkId.networkID),
        network_name: v.networkName.networkName,
        ip: v.ip ?? '',
      },
      1,
    ),
  ];
  out.push(...vmSamples(v.version));
  return out;
}

/** avax_node_vm_info alone (when getNodeVersion answered but another call failed). */
export function vmSamples(version: InfoGetNodeVersionResult): Sample[] {
  return Object.keys(version.vmVersions)
    .sort()
    .map((vm) => sample('avax_node_vm_info', { vm, version: version.vmVersions[vm]! }, 1));
}

const NETWORK_KEY = 'network';
const NETWORK_TTL_MS = 3_600_000;
interface CachedNetwork {
  id: InfoGetNetworkIDResult;
  name: InfoGetNetworkNameResult;
  version: string;
  at: number;
}

export const nodeInfo = defineCollector({
  name: 'node-info',
  description: 'Node identity: NodeID, version, database and RPC protocol versions, network, VM versions.',
  needs: 'Info API (info.getNodeID is absent on public servers: node_id is then empty)',
  interval: 60,
  metrics: [
    { name: 'avax_node_info', type: 'gauge', labels: ['node_id', 'version', 'database_version', 'git_commit', 'rpc_protocol_version', 'network_id', 'network_name', 'ip'], help: 'Node identity from info.getNodeID, info.getNodeVersion, info.getNetworkID and info.getNetworkName; ip: the advertised ip:port from info.getNodeIP (node-ip collector; empty when unknown or node-ip is off); value 1.' },
    { name: 'avax_node_vm_info', type: 'gauge', labels: ['vm', 'version'], help: 'VM versions from info.getNodeVersion vmVersions; value 1.' },
  ],
  calls: [{ method: 'info.getNodeID' }, { method: 'info.getNodeVersion' }, { method: 'info.getNetworkID' }, { method: 'info.getNetworkName' }],
  // Network ID and name are asked again only hourly or after a version change: 2 requests per run.
  requestsPerRun: () => 2,
  // info.getNodeIP is node-ip's call (every 5 min: the request budget has no room for a third call
  // here); its last value labels avax_node_info without making this collector wait for it.
  readsLatest: ['node-ip'],
  async collect(ctx) {
    const opts = { signal: ctx.signal };
    const idCall: Promise<InfoGetNodeIDResult | undefined> = ctx.target.reference
      ? Promise.resolve(undefined)
      : ctx.client.rpc(ENDPOINTS.info, 'info.getNodeID', {}, InfoGetNodeIDResult, { ...opts, normal: isNotFound }).catch((err: unknown) => {
          if (isNotFound(err)) return { nodeID: '', nodePOP: undefined };
          throw err;
        });
    // A node's network cannot change while it runs: network ID and name are asked again only after an
    // hour or when the version changes (a restart).
    const net = ctx.state.get(NETWORK_KEY) as CachedNetwork | undefined;
    const netFresh = net !== undefined && ctx.now() - net.at < NETWORK_TTL_MS;
    const settled = await settleAll([
      idCall,
      ctx.client.rpc(ENDPOINTS.info, 'info.getNodeVersion', {}, InfoGetNodeVersionResult, opts),
      netFresh ? Promise.resolve(net.id) : ctx.client.rpc(ENDPOINTS.info, 'info.getNetworkID', {}, InfoGetNetworkIDResult, opts),
      netFresh ? Promise.resolve(net.name) : ctx.client.rpc(ENDPOINTS.info, 'info.getNetworkName', {}, InfoGetNetworkNameResult, opts),
    ]);
    const [id, version, networkId, networkName] = settled;
    const errors = failures(settled);
    if (version.ok && networkId.ok && networkName.ok) {
      const key = `${version.value.version}/${version.value.gitCommit}`;
      if (!netFresh || net.version !== key) {
        // (Re)cache after a fresh fetch; a version change drops the cache so the next run asks again.
        if (netFresh && net.version !== key) ctx.state.delete(NETWORK_KEY);
        else ctx.state.set(NETWORK_KEY, { id: networkId.value, name: networkName.value, version: key, at: ctx.now() } satisfies CachedNetwork);
      }
    }

    let nodeId: string | undefined;
    let blsPublicKey: string | undefined;
    if (id.ok) {
      const got = id.value;
      nodeId = got?.nodeID ?? '';
      blsPublicKey = got?.nodePOP?.publicKey?.toLowerCase() ?? '';
      if (got !== undefined) {
        const learned = nodeId;
        onChange(ctx, 'nodeId', learned, () =>
          learned === ''
            ? ctx.log.info('info.getNodeID is not available on this node (public server?): node_id is empty')
            : ctx.log.info({ nodeId: learned }, 'node ID learned'),
        );
      }
    } else {
      // Keep the series stable across a transient failure of getNodeID.
      nodeId = ctx.previous?.nodeId;
      blsPublicKey = ctx.previous?.blsPublicKey;
    }

    const samples: Sample[] = [];
    if (version.ok) {
      if (nodeId !== undefined && networkId.ok && networkName.ok) {
        const ip: NodeIpValue['ip'] = ctx.read('node-ip')?.ip ?? '';
        samples.push(...toSamples({ nodeId, version: version.value, networkId: networkId.value, networkName: networkName.value, ip }));
      } else {
        samples.push(...vmSamples(version.value));
      }
    }
    return { value: { nodeId, blsPublicKey, version: version.ok ? version.value : undefined }, samples, errors };
  },
});
