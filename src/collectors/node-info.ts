import { sample, type Sample } from '../metrics/model.js';
import { ENDPOINTS, isNotFound } from '../node-client/index.js';
import {
  InfoGetNetworkIDResult,
  InfoGetNetworkNameResult,
  InfoGetNodeIDResult,
  InfoGetNodeIPResult,
  InfoGetNodeVersionResult,
} from '../schemas/info.js';
import { defineCollector } from './define.js';
import { failures, onChange, settleAll } from './support.js';

/** What node-info publishes: the node's identity, for platform-validators and the derivations. */
export interface NodeInfoValue {
  /** '' when info.getNodeID is absent (public server) or skipped (reference target); undefined until known. */
  readonly nodeId?: string;
  /** The node's BLS public key (info.getNodeID nodePOP.publicKey, lower case); '' when it has none. */
  readonly blsPublicKey?: string;
  /** info.getNodeVersion, when it answered. */
  readonly version?: InfoGetNodeVersionResult;
  /** info.getNodeIP (ip:port); '' when absent (public server) or left out; undefined until known. */
  readonly ip?: string;
}

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
  /** Advertised ip:port (info.getNodeIP); '' when unknown or left out (--no-collector.node-info.ip-label). */
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
/** When getNodeID last answered (ms), see askNodeId. */
const ID_AT_KEY = 'nodeIdAt';
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
    { name: 'avax_node_info', type: 'gauge', labels: ['node_id', 'version', 'database_version', 'git_commit', 'rpc_protocol_version', 'network_id', 'network_name', 'ip'], help: 'Node identity from info.getNodeID, info.getNodeVersion, info.getNetworkID, info.getNetworkName and info.getNodeIP (ip: the advertised ip:port, empty when unknown or left out); value 1.' },
    { name: 'avax_node_vm_info', type: 'gauge', labels: ['vm', 'version'], help: 'VM versions from info.getNodeVersion vmVersions; value 1.' },
  ],
  options: {
    ipLabel: { kind: 'bool', default: true, help: 'Ask info.getNodeIP and put the advertised ip:port in the ip label of avax_node_info (off: ip is empty, no request).' },
  },
  calls: [{ method: 'info.getNodeID' }, { method: 'info.getNodeVersion' }, { method: 'info.getNetworkID' }, { method: 'info.getNetworkName' }, { method: 'info.getNodeIP' }],
  // Network ID and name are asked again only hourly or after a version change, getNodeID only when
  // the answers' Node-Id header names another node (or hourly): getNodeVersion and getNodeIP, 2
  // requests per run (the request budget has no room for 3).
  requestsPerRun: () => 2,
  async collect(ctx) {
    const opts = { signal: ctx.signal };
    const askId = !ctx.target.reference && askNodeId(ctx);
    const idCall: Promise<InfoGetNodeIDResult | undefined> =
      !askId
        ? Promise.resolve(undefined)
        : ctx.client.rpc(ENDPOINTS.info, 'info.getNodeID', {}, InfoGetNodeIDResult, { ...opts, normal: isNotFound }).catch((err: unknown) => {
            if (isNotFound(err)) return { nodeID: '', nodePOP: undefined };
            throw err;
          });
    // info.getNodeIP is node-specific (absent on public servers: a normal state, ip '').
    const askIp = ctx.options.ipLabel && !ctx.target.reference;
    const ipCall: Promise<string | undefined> = !askIp
      ? Promise.resolve('')
      : ctx.client
          .rpc(ENDPOINTS.info, 'info.getNodeIP', {}, InfoGetNodeIPResult, { ...opts, normal: isNotFound })
          .then((r) => r.ip)
          .catch((err: unknown) => {
            if (isNotFound(err)) return '';
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
      ipCall,
    ]);
    const [id, version, networkId, networkName, ipResult] = settled;
    // getNodeVersion's error first: it is asked every run, so a lasting fault keeps the same first
    // error (one log line per state change) whether getNodeID was asked or not.
    const errors = failures([version, id, networkId, networkName, ipResult]);
    // A transient getNodeIP failure keeps the last known address (the series stays the same).
    const ip = ipResult.ok ? ipResult.value : ctx.previous?.ip;
    if (ipResult.ok && ipResult.value !== undefined && ipResult.value !== '') {
      const got = ipResult.value;
      onChange(ctx, 'ip', got, () => ctx.log.info({ ip: got }, 'advertised IP (info.getNodeIP)'));
    }
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
    if (id.ok && id.value === undefined && !ctx.target.reference) {
      // getNodeID was not asked this run (the same node answers): the last known identity.
      nodeId = ctx.previous?.nodeId;
      blsPublicKey = ctx.previous?.blsPublicKey;
    } else if (id.ok) {
      ctx.state.set(ID_AT_KEY, ctx.now());
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
        samples.push(...toSamples({ nodeId, version: version.value, networkId: networkId.value, networkName: networkName.value, ip: ip ?? '' }));
      } else {
        samples.push(...vmSamples(version.value));
      }
    }
    return { value: { nodeId, blsPublicKey, version: version.ok ? version.value : undefined, ip }, samples, errors };
  },
});

/**
 * Whether this run asks info.getNodeID: on the first run, hourly, and whenever the answers' Node-Id
 * header (every avalanchego answer carries it) is absent or names another node than the one known (a
 * restart with a new staking key). The NodeID cannot change otherwise while the node runs; a node
 * without the method (public server, '') is asked again hourly only.
 */
function askNodeId(ctx: Parameters<(typeof nodeInfo)['collect']>[0]): boolean {
  const known = ctx.previous?.nodeId;
  const at = ctx.state.get(ID_AT_KEY) as number | undefined;
  if (known === undefined || at === undefined || ctx.now() - at >= NETWORK_TTL_MS) return true;
  if (known === '') return false;
  const header = ctx.client.lastNodeIdHeader;
  return header === undefined || header !== known;
}
