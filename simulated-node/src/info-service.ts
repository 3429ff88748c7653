// The info API of the simulated node (POST /ext/info): api/info/service.go of the node's version.
// Method names are Go names (after the codec upper-cases the first letter).
// Part of the simulated avalanchego node, an independent oracle ON PURPOSE: this package shares no
// code with the exporter (src/) and has its own CB58, JSON-RPC envelope and constants, so
// that a bug in the exporter's decoding cannot hide behind the same bug here. Do not "fix" this
// duplication (test/sim/independence.test.ts fails on any import from outside this package).
import { chainLookup } from './chain-aliases.js';
import { fixed4 } from './go-format.js';
import { Args, RawJson, RpcError, type Service } from './json-rpc-envelope.js';
import { advertisedIp, installedVms } from './blockchains.js';
import type { NodeModel } from './node-model.js';
import type { PeerInfo } from './peers.js';

/** info.peers' serialized list, by the peers array it was made from (peers.ts keeps one per second). */
const PEERS_JSON = new WeakMap<PeerInfo[], string>();

export function infoService(m: NodeModel): Service {
  const svc: Service = {
    GetNodeVersion: () => {
      const v = m.profile.nodeVersion;
      return { ...v, vmVersions: { ...v.vmVersions } };
    },
    GetNodeID: () => ({ nodeID: m.nodeId, nodePOP: m.localBls() }),
    GetNodeIP: () => ({ ip: advertisedIp(m) }),
    GetNetworkID: () => ({ networkID: String(m.networkId) }),
    GetNetworkName: () => ({ networkName: m.networkName }),
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
        return new RawJson(`{"numPeers":"${peers.length}","peers":${JSON.stringify(peers)}}`);
      }
      // The whole list is the same array for a second (peers.ts): serialized once for it.
      let json = PEERS_JSON.get(peers);
      if (json === undefined) PEERS_JSON.set(peers, (json = JSON.stringify(peers)));
      return new RawJson(`{"numPeers":"${peers.length}","peers":${json}}`);
    },
    Uptime: () => {
      const u = m.uptime();
      if (!u) throw new RpcError(m.uptimeError());
      return { rewardingStakePercentage: fixed4(u.rewarding), weightedAveragePercentage: fixed4(u.weighted) };
    },
    // upgrade.Config of this version (versions.ts), the next upgrade last (none before v1.11.11: absentMethods).
    Upgrades: () => ({ ...Object.fromEntries(m.profile.upgrades ?? []), ...(m.profile.nextUpgrade ? { [m.profile.nextUpgrade]: m.nextUpgradeTime() } : {}) }),
    Acps: () => ({ acps: m.acps() }),
    GetVMs: () => ({
      vms: installedVms(m),
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
  // Methods of later versions (versions.ts); node-specific methods are not registered on a public API
  // server (public-server).
  for (const method of [...m.profile.absentMethods.info, ...(m.active.info?.absent ?? [])]) delete svc[method];
  return svc;
}
