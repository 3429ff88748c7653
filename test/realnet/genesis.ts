// The genesis and upgrade files of a local avalanchego network of our own (pure: data in, documents out).
//
// The network has a custom network ID, because avalanchego refuses an upgrade file for mainnet, fuji and
// local (config.getUpgradeConfig), and its genesis stakers are the nodes the harness starts: their NodeIDs
// and BLS keys come from the nodes themselves (network.ts asks each one for info.getNodeID before the
// network starts), so no staking key of anyone else is needed. Everything else is the shape of
// avalanchego's own genesis/genesis_local.json: its allocations (the well-known "ewoq" test key, which
// also funds the C-Chain account the traffic of c-chain-traffic.ts is sent from) and its C-Chain genesis.

/** What a genesis staker needs: its NodeID and BLS key with proof of possession (info.getNodeID's nodePOP). */
export interface GenesisStaker {
  readonly nodeID: string;
  readonly publicKey: string;
  readonly proofOfPossession: string;
}

/** The C-Chain ID of the local genesis (what eth_chainId answers: 0xa868). */
export const C_CHAIN_ID = 43112;

/** The "ewoq" test key of avalanchego's local genesis: funded on every chain of it. Test networks only. */
export const EWOQ_PRIVATE_KEY = '0x56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027';
/** Its C-Chain address. */
export const EWOQ_C_ADDRESS = '0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC';

const EWOQ_X = 'X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u';
/** The address whose locked allocation is staked for the genesis stakers (split between them). */
const STAKED_FUNDS = 'X-local1g65uqn6t77p656w64023nh8nd9updzmxyymev2';
/** 2020-12-05T05:00:00Z: the C-Chain genesis timestamp, and where every active upgrade is put. */
export const UPGRADES_ACTIVE_AT = '2020-12-05T05:00:00Z';
/** upgrade.UnscheduledActivationTime. */
const UNSCHEDULED = '9999-12-01T00:00:00Z';

const C_CHAIN_GENESIS = {
  config: {
    chainId: C_CHAIN_ID,
    homesteadBlock: 0,
    daoForkBlock: 0,
    daoForkSupport: true,
    eip150Block: 0,
    eip150Hash: '0x2086799aeebeae135c246c65021c82b4e15a2c451340993aacfd2751886514f0',
    eip155Block: 0,
    eip158Block: 0,
    byzantiumBlock: 0,
    constantinopleBlock: 0,
    petersburgBlock: 0,
    istanbulBlock: 0,
    muirGlacierBlock: 0,
    apricotPhase1BlockTimestamp: 0,
    apricotPhase2BlockTimestamp: 0,
  },
  nonce: '0x0',
  timestamp: '0x5FCB13D0',
  extraData: '0x00',
  gasLimit: '0x5f5e100',
  difficulty: '0x0',
  mixHash: '0x' + '0'.repeat(64),
  coinbase: '0x' + '0'.repeat(40),
  alloc: { [EWOQ_C_ADDRESS.slice(2)]: { balance: '0x295BE96E64066972000000' } },
  number: '0x0',
  gasUsed: '0x0',
  parentHash: '0x' + '0'.repeat(64),
};

export interface GenesisOptions {
  readonly networkId: number;
  readonly stakers: readonly GenesisStaker[];
  /** Unix seconds; the genesis stakes run a year from it (a start in the past keeps them current). */
  readonly startTime: number;
}

/** The genesis document (avalanchego's genesis.UnparsedConfig) of a network whose validators are `stakers`. */
export function genesisDocument(o: GenesisOptions): Record<string, unknown> {
  if (o.stakers.length === 0) throw new Error('a network needs at least one genesis staker');
  return {
    networkID: o.networkId,
    allocations: [
      { ethAddr: '0xb3d82b1367d362de99ab59a658165aff520cbd4d', avaxAddr: STAKED_FUNDS, initialAmount: 0, unlockSchedule: [{ amount: 10_000_000_000_000_000, locktime: 1633824000 }] },
      { ethAddr: '0xb3d82b1367d362de99ab59a658165aff520cbd4d', avaxAddr: EWOQ_X, initialAmount: 300_000_000_000_000_000, unlockSchedule: [{ amount: 20_000_000_000_000_000 }, { amount: 10_000_000_000_000_000, locktime: 1633824000 }] },
    ],
    startTime: o.startTime,
    initialStakeDuration: 31_536_000,
    initialStakeDurationOffset: 5_400,
    initialStakedFunds: [STAKED_FUNDS],
    initialStakers: o.stakers.map((s) => ({
      nodeID: s.nodeID,
      rewardAddress: EWOQ_X,
      delegationFee: 20_000,
      signer: { publicKey: s.publicKey, proofOfPossession: s.proofOfPossession },
    })),
    cChainGenesis: JSON.stringify(C_CHAIN_GENESIS),
    message: 'avalanche-exporter realnet',
  };
}

/** The upgrades each release knows (upgrade.Config's json tags), oldest first. */
const UPGRADES_BEFORE_GRANITE = [
  'apricotPhase1Time', 'apricotPhase2Time', 'apricotPhase3Time', 'apricotPhase4Time', 'apricotPhase5Time',
  'apricotPhasePre6Time', 'apricotPhase6Time', 'apricotPhasePost6Time', 'banffTime', 'cortinaTime', 'durangoTime',
  'etnaTime', 'fortunaTime',
];

/**
 * The upgrade file: every upgrade up to `activeUpTo` active at the C-Chain genesis time, the later ones the
 * release knows unscheduled. `helicon` is mainnet's shape since 2026-09-22 (v1.15.0+); `fortuna` is how a
 * v1.13.x network ran before Granite (v1.13.x has graniteTime, unscheduled).
 */
export function upgradeDocument(release: 'v1.13' | 'v1.15', activeUpTo: 'fortuna' | 'granite' | 'helicon'): Record<string, unknown> {
  const keys = [...UPGRADES_BEFORE_GRANITE, 'graniteTime', ...(release === 'v1.15' ? ['heliconTime'] : [])];
  const last = keys.indexOf(`${activeUpTo}Time`);
  if (last < 0) throw new Error(`${release} does not know the upgrade ${activeUpTo}`);
  const doc: Record<string, unknown> = {};
  keys.forEach((k, i) => (doc[k] = i <= last ? UPGRADES_ACTIVE_AT : UNSCHEDULED));
  doc['apricotPhase4MinPChainHeight'] = 0;
  doc['cortinaXChainStopVertexID'] = '11111111111111111111111111111111LpoYY';
  // Granite's P-Chain epochs (ACP-181): 30 s, as avalanchego's own local and test networks use.
  if (release === 'v1.15') doc['graniteEpochDuration'] = 30_000_000_000;
  return doc;
}
