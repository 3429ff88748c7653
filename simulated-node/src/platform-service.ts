// The P-chain API of the simulated node (POST /ext/bc/P): vms/platformvm/service.go.
// Method names are Go names (after the codec upper-cases the first letter).
// Part of the simulated avalanchego node, an independent oracle ON PURPOSE: this package shares no
// code with the exporter (src/) and has its own CB58, JSON-RPC envelope and constants, so
// that a bug in the exporter's decoding cannot hide behind the same bug here. Do not "fix" this
// duplication (test/sim/independence.test.ts fails on any import from outside this package).
import { PRIMARY_SUBNET_ID, cb58Decode } from './avalanche-ids.js';
import { chainLookup } from './chain-aliases.js';
import { feeConfig, feeState, minStake, validatorFeeConfig } from './economics.js';
import { goQuote, rfc3339 } from './go-format.js';
import { Args, ARG_ERROR, RawJson, RpcError, type Service } from './json-rpc-envelope.js';
import { AVAX_ASSET_ID, C_CHAIN_ID, L1_FEE_PRICE, P_CHAIN_ID, X_CHAIN_ID } from './mainnet-constants.js';
import { blockchains, createdStatus } from './blockchains.js';
import { l1ValidatorSet } from './l1-validators.js';
import type { NodeModel } from './node-model.js';
import { rewardMethods } from './rewards.js';

function subnetArg(a: Args): string {
  return a.id('subnetID') ?? PRIMARY_SUBNET_ID;
}

export function platformService(m: NodeModel): Service {
  const svc: Service = {
    // issue 14: reward outcomes (getRewardUTXOs, getBalance) in rewards.ts
    ...rewardMethods(m),
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
      // "proposed" decodes since v1.11.13 (before: the height is a json.Uint64 only).
      if (!((h === 'proposed' && m.profile.proposedHeight) || a.uint('height') !== null || h === undefined)) throw new RpcError(ARG_ERROR);
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
        const list = l1ValidatorSet(m);
        list.sort((x, y) => (x.nodeId < y.nodeId ? -1 : 1));
        for (const v of list) out[v.nodeId] = { publicKey: v.publicKey, weight: String(v.weight) };
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
      return minStake(m);
    },
    GetValidatorFeeState: () => ({ excess: 0, price: L1_FEE_PRICE, timestamp: rfc3339(m.pChainTimeMs()) }),
    GetFeeState: () => feeState(m),
    GetFeeConfig: () => feeConfig(),
    GetValidatorFeeConfig: () => validatorFeeConfig(),
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
      return { status: createdStatus(m, s) ?? 'Unknown' };
    },
    // Issue 14 (blockchains.ts): every chain except P.
    GetBlockchains: () => ({ blockchains: blockchains(m) }),
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
  // Methods of later versions (versions.ts: the Etna methods before v1.12; the fee configs before 1.15.0, see
  // VersionProfile.feeConfigApi).
  for (const method of m.profile.absentMethods.platform) delete svc[method];
  if (!m.profile.feeConfigApi) for (const method of ['GetFeeConfig', 'GetValidatorFeeConfig']) delete svc[method];
  return svc;
}
