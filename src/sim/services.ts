// JSON-RPC services of the simulated node: info, platform, avm, index, health.
// Method names are Go names (after the codec upper-cases the first letter).
import type { HealthChecker } from './health.js';
import {
  AVAX_ASSET_ID,
  CHAINS,
  C_CHAIN_ID,
  L1_FEE_PRICE,
  P_CHAIN_ID,
  X_CHAIN_ID,
  type ChainAlias,
  type Container,
  type NodeModel,
} from './model.js';
import { Args, ARG_ERROR, RawJson, RpcError, type MethodFn, type Services } from './rpc.js';
import { PRIMARY_SUBNET_ID, cb58Decode, derivedBytes, cb58Encode, fixed4, goQuote, rfc3339, rfc3339Nano, sha256 } from './util.js';

type Svc = Record<string, MethodFn>;

/** Chain aliases known to the chain manager (alias -> chain ID). */
function chainLookup(m: NodeModel, s: string): string | null {
  const aliases: Record<string, string> = {
    P: P_CHAIN_ID,
    platform: P_CHAIN_ID,
    X: X_CHAIN_ID,
    avm: X_CHAIN_ID,
    C: C_CHAIN_ID,
    evm: C_CHAIN_ID,
  };
  if (Object.prototype.hasOwnProperty.call(aliases, s)) return aliases[s] as string;
  if (s === P_CHAIN_ID || s === X_CHAIN_ID || s === C_CHAIN_ID || s === m.l1ChainId) return s;
  return null;
}

// ---------------------------------------------------------------------------
// info

export function infoService(m: NodeModel): Svc {
  const svc: Svc = {
    GetNodeVersion: () => {
      const v = m.profile.nodeVersion;
      return { ...v, vmVersions: { ...v.vmVersions } };
    },
    GetNodeID: () => ({ nodeID: m.nodeId, nodePOP: m.localBls() }),
    GetNodeIP: () => ({ ip: m.nodeIp }),
    GetNetworkID: () => ({ networkID: '1' }),
    GetNetworkName: () => ({ networkName: 'mainnet' }),
    GetBlockchainID: (a: Args) => {
      const alias = a.str('alias');
      const id = chainLookup(m, alias);
      if (!id) throw new RpcError(`there is no ID with alias ${alias}`);
      return { blockchainID: id };
    },
    IsBootstrapped: (a: Args) => {
      const chain = a.str('chain');
      if (chain === '') throw new RpcError("argument 'chain' not given");
      if (!chainLookup(m, chain)) throw new RpcError(`there is no chain with alias/ID '${chain}'`);
      return { isBootstrapped: m.bootstrapped };
    },
    Peers: (a: Args) => {
      const ids = a.nodeIds('nodeIDs');
      let peers = m.peers();
      if (ids && ids.length > 0) {
        const want = new Set(ids);
        peers = peers.filter((p) => want.has(p.nodeID));
      }
      return new RawJson(`{"numPeers":"${peers.length}","peers":${JSON.stringify(peers)}}`);
    },
    Uptime: () => {
      const u = m.uptime();
      if (!u) throw new RpcError(m.uptimeError());
      return { rewardingStakePercentage: fixed4(u.rewarding), weightedAveragePercentage: fixed4(u.weighted) };
    },
    // upgrade.Config of this version (versions.ts), the next upgrade last.
    Upgrades: () => ({ ...Object.fromEntries(m.profile.upgrades), [m.profile.nextUpgrade]: m.nextUpgradeTime() }),
    Acps: () => ({ acps: m.acps() }),
    GetVMs: () => ({
      vms: {
        jvYyfQTxGMJLuGWa55kdP2p2zSUYsQ5Raupu4TW34ZAUBAbtq: ['avm'],
        mgj786NP7uDwBCcq6YwThhaN8FLyybkCa4zBWTQbNgmK6k9A6: ['evm'],
        rWhpuQPF1kb72esV2momhMuTYGkEb1oL29pt2EBXWmSy4kxnT: ['platform'],
      },
      fxs: {
        qd2U4HDWUvMrVUeTcCHp6xH3Qpnn1XbU5MDdnBoiifFqvgXwT: 'nftfx',
        rXJsCSEYXg2TehWxCEEGj6JU2PWKTkd6cBdNLjoe2SpsKD9cy: 'propertyfx',
        spdxUxVJQbX85MGxMHbKw1sHxMnSqJ3QBzDyDYEP3h6TLuxqQ: 'secp256k1fx',
      },
    }),
    GetTxFee: () => ({
      txFee: '1000000',
      createAssetTxFee: '10000000',
      createSubnetTxFee: '1000000000',
      transformSubnetTxFee: '10000000000',
      createBlockchainTxFee: '1000000000',
      addPrimaryNetworkValidatorFee: '0',
      addPrimaryNetworkDelegatorFee: '0',
      addSubnetValidatorFee: '1000000',
      addSubnetDelegatorFee: '1000000',
    }),
  };
  if (m.scenario === 'public-server') {
    // Node-specific methods are not registered on a public API server.
    delete svc['GetNodeID'];
    delete svc['GetNodeIP'];
    delete svc['GetVMs'];
  }
  return svc;
}

// ---------------------------------------------------------------------------
// platform (P-chain)

function subnetArg(a: Args): string {
  return a.id('subnetID') ?? PRIMARY_SUBNET_ID;
}

export function platformService(m: NodeModel): Svc {
  return {
    GetHeight: () => ({ height: String(m.height('P')) }),
    GetProposedHeight: () => {
      const h = m.height('P');
      return { height: String(Math.max(0, h - (Math.floor(m.now() / 2000) % 2))) };
    },
    GetTimestamp: () => ({ timestamp: rfc3339(m.pChainTimeMs()) }),
    GetCurrentValidators: (a: Args) => {
      const subnet = subnetArg(a);
      const ids = a.nodeIds('nodeIDs');
      const filter = ids && ids.length > 0 ? ids : null;
      if (subnet === PRIMARY_SUBNET_ID) return new RawJson(m.primaryValidatorsJson(filter));
      if (subnet === m.l1SubnetId) return { validators: m.l1Validators(filter) };
      return { validators: [] };
    },
    GetValidatorsAt: (a: Args) => {
      const h = a.raw('height');
      if (!(h === 'proposed' || a.uint('height') !== null || h === undefined)) throw new RpcError(ARG_ERROR);
      const subnet = subnetArg(a);
      const out: Record<string, { publicKey: string | null; weight: string }> = {};
      if (subnet === PRIMARY_SUBNET_ID) {
        const list = JSON.parse(m.primaryValidatorsJson(null)) as { validators: Array<Record<string, unknown>> };
        const sorted = [...list.validators].sort((x, y) => ((x['nodeID'] as string) < (y['nodeID'] as string) ? -1 : 1));
        for (const v of sorted) {
          const w = BigInt(v['weight'] as string) + BigInt(v['delegatorWeight'] as string);
          out[v['nodeID'] as string] = { publicKey: (v['signer'] as { publicKey: string }).publicKey, weight: w.toString() };
        }
      } else if (subnet === m.l1SubnetId) {
        const list = m.l1Validators(null).filter((v) => v['balance'] !== '0');
        list.sort((x, y) => ((x['nodeID'] as string) < (y['nodeID'] as string) ? -1 : 1));
        for (const v of list) out[v['nodeID'] as string] = { publicKey: v['publicKey'] as string, weight: v['weight'] as string };
      }
      return out;
    },
    GetCurrentSupply: (a: Args) => {
      const subnet = subnetArg(a);
      if (subnet !== PRIMARY_SUBNET_ID) throw new RpcError('not found');
      return { supply: m.currentSupply().toString(), height: String(m.height('P')) };
    },
    GetTotalStake: (a: Args) => {
      const subnet = subnetArg(a);
      let w = 0n;
      if (subnet === PRIMARY_SUBNET_ID) w = m.primaryTotalStake();
      else if (subnet === m.l1SubnetId) w = m.l1TotalWeight();
      return { stake: w.toString(), weight: w.toString() };
    },
    GetMinStake: (a: Args) => {
      const subnet = subnetArg(a);
      if (subnet !== PRIMARY_SUBNET_ID) throw new RpcError(`failed fetching subnet transformation for ${subnet}: not found`);
      return { minValidatorStake: '2000000000000', minDelegatorStake: '25000000000' };
    },
    GetValidatorFeeState: () => ({ excess: 0, price: L1_FEE_PRICE, timestamp: rfc3339(m.pChainTimeMs()) }),
    GetFeeState: () => ({ capacity: 1000000, excess: 0, price: 1, timestamp: rfc3339(m.pChainTimeMs()) }),
    GetStakingAssetID: () => ({ assetID: AVAX_ASSET_ID }),
    GetBlockchainStatus: (a: Args) => {
      const s = a.str('blockchainID');
      if (s === '') throw new RpcError("argument 'blockchainID' not given");
      const id = chainLookup(m, s);
      if (id) {
        // nodeValidates(): only chains created by a CreateChainTx (X, C, L1 chains) can report Validating.
        if (id === P_CHAIN_ID) return { status: 'Syncing' };
        return { status: m.isValidator ? 'Validating' : 'Syncing' };
      }
      const raw = cb58Decode(s);
      if (!raw || raw.length !== 32) throw new RpcError(`problem parsing blockchainID ${goQuote(s)}: invalid input checksum`);
      return { status: 'Unknown' };
    },
    GetTxStatus: (a: Args) => {
      const tx = a.id('txID');
      if (!tx) throw new RpcError(ARG_ERROR);
      return { status: m.hasTx(tx) ? 'Committed' : 'Unknown' };
    },
    ValidatedBy: (a: Args) => {
      const id = a.id('blockchainID');
      if (id === X_CHAIN_ID || id === C_CHAIN_ID) return { subnetID: PRIMARY_SUBNET_ID };
      if (id === m.l1ChainId) return { subnetID: m.l1SubnetId };
      throw new RpcError('problem retrieving blockchain: not found');
    },
    Validates: (a: Args) => {
      const subnet = subnetArg(a);
      if (subnet === PRIMARY_SUBNET_ID) return { blockchainIDs: [X_CHAIN_ID, C_CHAIN_ID] };
      if (subnet === m.l1SubnetId) return { blockchainIDs: [m.l1ChainId] };
      return { blockchainIDs: [] };
    },
  };
}

// ---------------------------------------------------------------------------
// avm (X-chain)

export function avmService(m: NodeModel): Svc {
  return {
    GetHeight: () => ({ height: String(m.height('X')) }),
    GetTxStatus: (a: Args) => {
      const tx = a.id('txID');
      if (!tx) throw new RpcError(ARG_ERROR);
      return { status: 'Unknown' };
    },
  };
}

// ---------------------------------------------------------------------------
// index

export type IndexKind = 'block' | 'tx' | 'vtx';

function encodingArg(a: Args): 'hex' | 'hexc' | 'hexnc' {
  const e = a.raw('encoding');
  if (e === undefined || e === null || e === '') return 'hex';
  if (typeof e !== 'string') throw new RpcError(ARG_ERROR);
  const l = e.toLowerCase();
  if (l === 'hex' || l === 'hexc' || l === 'hexnc') return l;
  if (l === 'json') throw new RpcError('unsupported encoding in method');
  throw new RpcError(ARG_ERROR);
}

function containerJson(c: Container, enc: 'hex' | 'hexc' | 'hexnc'): Record<string, unknown> {
  const hex = c.bytes.toString('hex');
  const sum = enc === 'hexnc' ? '' : sha256(c.bytes).subarray(28).toString('hex');
  return {
    id: c.id,
    bytes: '0x' + hex + sum,
    timestamp: rfc3339Nano(c.timestampMs, c.timestampNs),
    encoding: enc,
    index: String(c.index),
  };
}

/** Frozen X/tx and X/vtx indexes (stopped growing at Cortina). */
function frozenContainer(m: NodeModel, kind: 'tx' | 'vtx', index: number): Container {
  const f = m.frozen[kind];
  const bytes = derivedBytes(`${kind}/${m.seed}/${index}`, 120 + (index % 200));
  return {
    id: cb58Encode(sha256(bytes)),
    bytes,
    timestampMs: index === f.index ? f.ms : f.ms - (f.index - index) * 2000,
    timestampNs: index === f.index ? f.ns : 0,
    index,
  };
}

/** indexer/index.go errNoneAccepted: the index has no container yet. */
const NONE_ACCEPTED = 'no containers have been accepted';

/**
 * An index without any container (index-empty), as indexer/index.go answers it: getLastAccepted
 * and getContainerRange (once numToFetch is valid) errNoneAccepted; getContainerByIndex
 * "no container at index N"; getContainerByID / getIndex "not found"; isAccepted false.
 */
function emptyIndexService(): Svc {
  return {
    GetLastAccepted: (a: Args) => {
      encodingArg(a);
      throw new RpcError(NONE_ACCEPTED);
    },
    GetContainerByIndex: (a: Args) => {
      encodingArg(a);
      throw new RpcError(`no container at index ${a.uint('index') ?? 0}`);
    },
    GetContainerRange: (a: Args) => {
      encodingArg(a);
      const n = a.uint('numToFetch') ?? 0;
      if (n < 1 || n > 1024) throw new RpcError(`numToFetch must be in [1,1024] but is ${n}`);
      throw new RpcError(NONE_ACCEPTED);
    },
    GetContainerByID: (a: Args) => {
      encodingArg(a);
      a.id('id');
      throw new RpcError('not found');
    },
    GetIndex: (a: Args) => {
      a.id('id');
      throw new RpcError('not found');
    },
    IsAccepted: (a: Args) => {
      a.id('id');
      return { isAccepted: false };
    },
  };
}

export function indexService(m: NodeModel, chain: ChainAlias, kind: IndexKind): Svc {
  if (m.scenario === 'index-empty') return emptyIndexService();
  const frozenKind = kind === 'block' ? null : kind;
  const last = (): Container => (frozenKind ? frozenContainer(m, frozenKind, m.frozen[frozenKind].index) : m.lastIndexed(chain));
  const byIndex = (i: number): Container | null => {
    if (frozenKind) return i >= 0 && i <= m.frozen[frozenKind].index ? frozenContainer(m, frozenKind, i) : null;
    return m.containerByIndex(chain, i);
  };
  const byId = (id: string): Container | null => {
    if (frozenKind) {
      const l = last();
      return l.id === id ? l : null;
    }
    return m.lookupContainer(chain, id);
  };
  return {
    GetLastAccepted: (a: Args) => containerJson(last(), encodingArg(a)),
    GetContainerByIndex: (a: Args) => {
      const enc = encodingArg(a);
      const i = a.uint('index') ?? 0;
      const c = byIndex(i);
      if (!c) throw new RpcError(`no container at index ${i}`);
      return containerJson(c, enc);
    },
    GetContainerRange: (a: Args) => {
      const enc = encodingArg(a);
      const start = a.uint('startIndex') ?? 0;
      const n = a.uint('numToFetch') ?? 0;
      if (n < 1 || n > 1024) throw new RpcError(`numToFetch must be in [1,1024] but is ${n}`);
      const lastIdx = last().index;
      if (start > lastIdx) throw new RpcError(`start index (${start}) > last accepted index (${lastIdx})`);
      const containers: Record<string, unknown>[] = [];
      for (let i = start; i <= Math.min(lastIdx, start + n - 1); i++) {
        const c = byIndex(i);
        if (c) containers.push(containerJson(c, enc));
      }
      return { containers };
    },
    GetContainerByID: (a: Args) => {
      const enc = encodingArg(a);
      const id = a.id('id');
      const c = id ? byId(id) : null;
      if (!c) throw new RpcError('not found');
      return containerJson(c, enc);
    },
    GetIndex: (a: Args) => {
      const id = a.id('id');
      const c = id ? byId(id) : null;
      if (!c) throw new RpcError('not found');
      return { index: String(c.index) };
    },
    IsAccepted: (a: Args) => {
      const id = a.id('id');
      return { isAccepted: id ? byId(id) !== null : false };
    },
  };
}

// ---------------------------------------------------------------------------
// health (JSON-RPC on POST /ext/health)

export function healthService(h: HealthChecker): Svc {
  return {
    Health: (a: Args) => h.health(a.strings('tags')),
    Readiness: () => h.readiness(),
    Liveness: () => h.liveness(),
  };
}

export function servicesFor(name: string, svc: Svc): Services {
  return { [name]: svc };
}

export { CHAINS };
