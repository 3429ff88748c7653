import { sample, type Sample } from '../metrics/model.js';
import { ENDPOINTS, isNotFound } from '../node-client/index.js';
import {
  InfoGetNetworkIDResult,
  InfoGetNetworkNameResult,
  InfoGetNodeIDResult,
  InfoGetNodeVersionResult,
} from '../schemas/info.js';
import { failures, onChange, settleAll } from './support.js';
import type { Collector, CollectorContext, CollectResult } from './types.js';

export interface NodeInfoValue {
  /** '' when info.getNodeID is absent (public server) or skipped (reference target). */
  readonly nodeId: string;
  readonly version: InfoGetNodeVersionResult;
  readonly networkId: InfoGetNetworkIDResult;
  readonly networkName: InfoGetNetworkNameResult;
}

/** avax_node_info and one avax_node_vm_info per vmVersions entry. */
export function toSamples(v: NodeInfoValue): Sample[] {
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

/** Node ID lookup shared with platform-validators: '' when the method is absent. */
const NETWORK_KEY = 'network';
const NETWORK_TTL_MS = 3_600_000;
interface CachedNetwork {
  id: InfoGetNetworkIDResult;
  name: InfoGetNetworkNameResult;
  version: string;
  at: number;
}

export async function fetchNodeId(ctx: CollectorContext): Promise<string> {
  try {
    const r = await ctx.client.rpc(ENDPOINTS.info, 'info.getNodeID', {}, InfoGetNodeIDResult, { signal: ctx.signal, normal: isNotFound });
    ctx.memo.blsPublicKey = r.nodePOP?.publicKey?.toLowerCase() ?? '';
    return r.nodeID;
  } catch (err) {
    if (isNotFound(err)) return '';
    throw err;
  }
}

export const nodeInfo: Collector = {
  name: 'node-info',
  description: 'Node identity: NodeID, version, database and RPC protocol versions, network, VM versions.',
  needs: 'Info API (info.getNodeID is absent on public servers: node_id is then empty)',
  defaultIntervalSeconds: 60,
  defaultEnabled: true,
  nodeSpecific: false,
  requestsPerRun: () => 2,
  async collect(ctx: CollectorContext): Promise<CollectResult> {
    const opts = { signal: ctx.signal };
    const idCall: Promise<string | undefined> = ctx.target.reference ? Promise.resolve(undefined) : fetchNodeId(ctx);
    // A node's network cannot change while it runs: network ID and name are asked again only after an
    // hour or when the version changes (a restart), which keeps node-info at 2 requests per run.
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
    if (id.ok) {
      const got = id.value;
      if (got !== undefined) {
        ctx.memo.nodeId = got;
        ctx.memo.nodeIdAt = ctx.now();
        onChange(ctx, 'nodeId', got, () =>
          got === ''
            ? ctx.log.info('info.getNodeID is not available on this node (public server?): node_id is empty')
            : ctx.log.info({ nodeId: got }, 'node ID learned'),
        );
        nodeId = got;
      } else {
        nodeId = '';
      }
    } else {
      // Keep the series stable across a transient failure of getNodeID.
      nodeId = ctx.memo.nodeId;
    }

    const samples: Sample[] = [];
    if (version.ok) {
      const v = version.value;
      ctx.memo.nodeVersion = v.version;
      if (nodeId !== undefined && networkId.ok && networkName.ok) {
        samples.push(...toSamples({ nodeId, version: v, networkId: networkId.value, networkName: networkName.value }));
      } else {
        samples.push(...vmSamples(v));
      }
    }
    return { samples, errors };
  },
};
