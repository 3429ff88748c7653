import { gauge, sample, type Sample } from '../model.js';
import { ENDPOINTS, failures, rpcCall } from '../node-client/index.js';
import {
  InfoGetNetworkIDResult,
  InfoGetNetworkNameResult,
  InfoGetNodeIDResult,
  InfoGetNodeVersionResult,
} from '../schemas/info.js';
import { defineCollector, type CollectorValues, type CollectorOf } from './define.js';

/** What node-info publishes: the node's identity, for platform-validators and the derivations. */
export interface NodeInfoValue {
  /** '' when info.getNodeID is absent (public server) or skipped (reference target); undefined until known. */
  readonly nodeId?: string;
  /** The node's BLS public key (info.getNodeID nodePOP.publicKey, lower case); '' when it has none. */
  readonly blsPublicKey?: string;
  /** info.getNodeVersion, when it answered. */
  readonly version?: InfoGetNodeVersionResult;
  /** info.getNetworkID (decimal string): which network's shared answers serve this target (network collectors). */
  readonly networkId?: string;
}

// The advertised address comes from node-ip (info.getNodeIP), read without waiting for it.
type NodeIpValue = CollectorValues['node-ip'];

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

/** avax_node_vm_info and avax_node_rpc_protocol_version alone (when getNodeVersion answered but another call failed). */
export function vmSamples(version: InfoGetNodeVersionResult): Sample[] {
  const out = Object.keys(version.vmVersions)
    .sort()
    .map((vm) => sample('avax_node_vm_info', { vm, version: version.vmVersions[vm]! }, 1));
  // "" when the node did not say (a very old node): no series rather than a wrong 0.
  if (/^\d+$/.test(version.rpcProtocolVersion)) out.push(sample('avax_node_rpc_protocol_version', {}, Number(version.rpcProtocolVersion)));
  return out;
}

export const infoGetNodeIDCall = rpcCall({ method: 'info.getNodeID', endpoint: ENDPOINTS.info, result: InfoGetNodeIDResult, absent: 'public API servers do not expose it: node_id is empty' });
export const infoGetNodeVersionCall = rpcCall({ method: 'info.getNodeVersion', endpoint: ENDPOINTS.info, result: InfoGetNodeVersionResult });
export const infoGetNetworkIDCall = rpcCall({ method: 'info.getNetworkID', endpoint: ENDPOINTS.info, result: InfoGetNetworkIDResult });
export const infoGetNetworkNameCall = rpcCall({ method: 'info.getNetworkName', endpoint: ENDPOINTS.info, result: InfoGetNetworkNameResult });

/** A node's network cannot change while it runs: asked again only after an hour or a version change. */
const NETWORK_TTL_MS = 3_600_000;
interface CachedNetwork {
  id: InfoGetNetworkIDResult;
  name: InfoGetNetworkNameResult;
  version: string;
  at: number;
}

export const nodeInfo: CollectorOf<'node-info', NodeInfoValue> = defineCollector({
  name: 'node-info',
  description: 'Node identity: NodeID, version, database and RPC protocol versions, network, VM versions.',
  needs: 'Info API (info.getNodeID is absent on public servers: node_id is then empty)',
  interval: 60,
  metrics: [
    gauge('avax_node_info', 'Node identity from info.getNodeID, info.getNodeVersion, info.getNetworkID and info.getNetworkName; ip: the advertised ip:port from info.getNodeIP (node-ip collector; empty when unknown or node-ip is off); value 1.', ['node_id', 'version', 'database_version', 'git_commit', 'rpc_protocol_version', 'network_id', 'network_name', 'ip']),
    gauge('avax_node_vm_info', 'VM versions from info.getNodeVersion vmVersions; value 1.', ['vm', 'version']),
    gauge('avax_node_rpc_protocol_version', 'RPCChainVM protocol version the node implements (info.getNodeVersion rpcProtocolVersion, as a number): a VM plugin must implement exactly this one (compare avax_chain_vm_rpc_protocol_version).'),
  ],
  calls: [infoGetNodeIDCall, infoGetNodeVersionCall, infoGetNetworkIDCall, infoGetNetworkNameCall],
  // Network ID and name are asked again only hourly or after a version change: 2 requests per run.
  requestsPerRun: () => 2,
  // info.getNodeIP is node-ip's call (every 5 min: the request budget has no room for a third call
  // here); its last value labels avax_node_info without making this collector wait for it.
  readsLatest: ['node-ip'],
  memory: (): { network?: CachedNetwork } => ({}),
  // The network shares its answers between targets; a new version (or git commit) is a restart; the
  // NodeID and version are the node's identity on the snapshot.
  identifies: (v) => ({
    network: v.networkId,
    process: v.version ? `${v.version.version}/${v.version.gitCommit}` : undefined,
    nodeId: v.nodeId,
    version: v.version?.version,
  }),
  async collect(ctx) {
    const net = ctx.memory.network;
    const netFresh = net !== undefined && ctx.now() - net.at < NETWORK_TTL_MS;
    const [id, version, networkId, networkName] = await Promise.all([
      // A reference target (public API): no node-specific call.
      ctx.target.reference ? undefined : ctx.call(infoGetNodeIDCall, undefined),
      ctx.call(infoGetNodeVersionCall, undefined),
      netFresh ? { ok: true as const, value: net.id } : ctx.call(infoGetNetworkIDCall, undefined),
      netFresh ? { ok: true as const, value: net.name } : ctx.call(infoGetNetworkNameCall, undefined),
    ]);
    const errors = failures([...(id ? [id] : []), version, networkId, networkName]);
    if (version.ok && networkId.ok && networkName.ok) {
      const key = `${version.value.version}/${version.value.gitCommit}`;
      // (Re)cache after a fresh fetch; a version change (a restart) drops the cache so the next run asks again.
      if (netFresh && net.version !== key) ctx.memory.network = undefined;
      else if (!netFresh) ctx.memory.network = { id: networkId.value, name: networkName.value, version: key, at: ctx.now() };
    }

    let nodeId: string | undefined;
    let blsPublicKey: string | undefined;
    if (id === undefined || id.ok || id.normal) {
      // '' on a reference target or when getNodeID is absent (public server).
      nodeId = id?.ok ? id.value.nodeID : '';
      blsPublicKey = id?.ok ? (id.value.nodePOP?.publicKey?.toLowerCase() ?? '') : '';
      if (id?.ok) {
        const learned = nodeId;
        ctx.logOnChange('nodeId', learned, () => ctx.log.info({ nodeId: learned }, 'node ID learned'));
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
    const networkID = networkId.ok ? String(networkId.value.networkID) : ctx.previous?.networkId;
    return { value: { nodeId, blsPublicKey, version: version.ok ? version.value : undefined, networkId: networkID }, samples, errors };
  },
});
