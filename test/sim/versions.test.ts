// Issues 16 and 24: the simulated node as avalanchego v1.11.7, v1.12.2, v1.13.5, v1.14.2 and v1.15.0. Every
// difference between them on the wire (each from a real node of that version: versions-recorded.test.ts
// holds the comparison with the recordings), and that everything else is byte for byte the same.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIM_VERSIONS, startSimNode, type SimNode, type SimVersion } from '@avalanche-exporter/simulated-node';
import { parseSimArgs } from '@avalanche-exporter/simulated-node';
import { post, raw, result, rpc, waitFor } from './helpers.js';

const T0 = Date.UTC(2026, 4, 14, 9, 21, 31);
const PRIMARY = '11111111111111111111111111111111LpoYY';
const NOT_YET_RUN = { error: 'not yet run', timestamp: '0001-01-01T00:00:00Z', duration: 0 };
let clock = T0;
const nodes = {} as Record<SimVersion, SimNode>;
const byJson = (a: string[]): string[] => [...a].sort((x, y) => (JSON.stringify(x) < JSON.stringify(y) ? -1 : 1));
const cantFind = (m: string) => `{"jsonrpc":"2.0","error":{"code":-32000,"message":"rpc: can't find method \\"${m}\\"","data":null},"id":1}\n`;

const UPGRADES_TO_DURANGO = 'apricotPhase1Time,apricotPhase2Time,apricotPhase3Time,apricotPhase4Time,apricotPhase4MinPChainHeight,apricotPhase5Time,apricotPhasePre6Time,apricotPhase6Time,apricotPhasePost6Time,banffTime,cortinaTime,cortinaXChainStopVertexID,durangoTime';
const PEER = 'ip,publicIP,nodeID,version,lastSent,lastReceived,observedUptime,trackedSubnets,supportedACPs,objectedACPs,benched';
const VALIDATOR = 'validationRewardOwner,delegationRewardOwner,potentialReward,accruedDelegateeReward,delegationFee,uptime,connected,signer,delegatorCount,delegatorWeight';
const L1_VALIDATOR = 'nodeID,weight,startTime,validationID,publicKey,remainingBalanceOwner,deactivationOwner,minNonce,balance';

/** What v1.13.x and later share: the validator health in the network check, disconnectedValidators, the stakers without deprecated members, L1s. */
const SINCE_V113 = {
  network: 'connectedPeers,primary network validator health,sendFailRate,timeSinceLastMsgReceived,timeSinceLastMsgSent',
  networking: 'disconnectedValidators,percentConnected',
  validator: `txID,startTime,endTime,weight,nodeID,${VALIDATOR}`,
  subnetValidator: L1_VALIDATOR,
  etna: true,
};

/** And v1.14.x and later: Granite's epoch duration and Helicon in info.upgrades, the peers' upgradeTime, the futureupgrade check. */
const SINCE_V114 = {
  ...SINCE_V113,
  upgrades: `${UPGRADES_TO_DURANGO},etnaTime,fortunaTime,graniteTime,graniteEpochDuration,heliconTime`,
  peer: PEER.replace('version,', 'version,upgradeTime,'),
  checks: ['bls', 'bootstrapped', 'database', 'diskspace', 'futureupgrade', 'network', 'router'],
};

/** What each version shows (written out here, not read from versions.ts: the test is the second opinion). */
const SHAPE: Record<SimVersion, {
  nodeVersion: RegExp;
  upgrades: string | null;
  peer: string;
  peerVersions: string[];
  checks: string[];
  network: string;
  networking: string;
  consensus: string;
  validator: string;
  subnetValidator: string;
  etna: boolean;
}> = {
  '1.11.7': {
    nodeVersion: /^\{"version":"avalanchego\/1\.11\.7","databaseVersion":"v1\.4\.5","rpcProtocolVersion":"35","gitCommit":"e8ecbadec8eb1c336dd8927b0225499eceea6f34","vmVersions":\{"avm":"v1\.11\.7","evm":"v0\.13\.4","platform":"v1\.11\.7"\}\}$/,
    upgrades: null,
    peer: PEER.replace('observedUptime,', 'observedUptime,observedSubnetUptimes,'),
    peerVersions: ['avalanchego/1.11.5', 'avalanchego/1.11.6', 'avalanchego/1.11.7'],
    checks: ['bootstrapped', 'database', 'diskspace', 'network', 'router'],
    network: 'connectedPeers,sendFailRate,timeSinceLastMsgReceived,timeSinceLastMsgSent',
    networking: 'percentConnected',
    consensus: 'lastAcceptedHeight,lastAcceptedID,longestProcessingBlock,processingBlocks',
    validator: `txID,startTime,endTime,weight,nodeID,stakeAmount,rewardOwner,${VALIDATOR}`,
    subnetValidator: 'txID,startTime,endTime,weight,nodeID,stakeAmount,connected,uptime',
    etna: false,
  },
  '1.12.2': {
    nodeVersion: /^\{"version":"avalanchego\/1\.12\.2","databaseVersion":"v1\.4\.5","rpcProtocolVersion":"39","gitCommit":"bf1d1debec5fd55055330a00da1e9567b280c950","vmVersions":\{"avm":"v1\.12\.2","evm":"v0\.14\.1","platform":"v1\.12\.2"\}\}$/,
    upgrades: `${UPGRADES_TO_DURANGO},etnaTime,fUpgradeTime`,
    peer: PEER,
    peerVersions: ['avalanchego/1.12.0', 'avalanchego/1.12.1', 'avalanchego/1.12.2'],
    checks: ['bls', 'bootstrapped', 'database', 'diskspace', 'network', 'router'],
    network: 'connectedPeers,sendFailRate,timeSinceLastMsgReceived,timeSinceLastMsgSent',
    networking: 'disconnectedValidators,percentConnected',
    consensus: 'lastAcceptedHeight,lastAcceptedID,longestProcessingBlock,processingBlocks',
    validator: `txID,startTime,endTime,weight,nodeID,rewardOwner,${VALIDATOR}`,
    subnetValidator: L1_VALIDATOR,
    etna: true,
  },
  '1.13.5': {
    nodeVersion: /^\{"version":"avalanchego\/1\.13\.5","databaseVersion":"v1\.4\.5","rpcProtocolVersion":"43","gitCommit":"[0-9a-f]{40}","vmVersions":\{"avm":"v1\.13\.5","evm":"v0\.15\.4","platform":"v1\.13\.5"\}\}$/,
    upgrades: `${UPGRADES_TO_DURANGO},etnaTime,fortunaTime,graniteTime`,
    peer: PEER,
    peerVersions: ['avalanchego/1.13.4', 'avalanchego/1.13.5', 'avalanchego/1.14.0', 'avalanchego/1.14.1', 'avalanchego/1.14.2'],
    checks: ['bls', 'bootstrapped', 'database', 'diskspace', 'network', 'router'],
    ...SINCE_V113,
    consensus: 'lastAcceptedHeight,lastAcceptedID,longestProcessingBlock,processingBlocks',
  },
  '1.14.2': {
    nodeVersion: /^\{"version":"avalanchego\/1\.14\.2","databaseVersion":"v1\.4\.5","rpcProtocolVersion":"45","gitCommit":"[0-9a-f]{40}","vmVersions":\{"avm":"avalanchego\/1\.14\.2","evm":"v1\.14\.2","platform":"avalanchego\/1\.14\.2"\}\}$/,
    ...SINCE_V114,
    peerVersions: ['avalanchego/1.14.0', 'avalanchego/1.14.1', 'avalanchego/1.14.2'],
    consensus: 'avgAcceptanceTime,lastAcceptedHeight,lastAcceptedID,longestProcessingBlock,processingBlocks',
  },
  // A real v1.15.0 node (test/fixtures/real-node-v1.15.0) on mainnet at this test's clock (2026-05-14): Helicon
  // scheduled for 2026-09-22, not active yet (no ACP-236 members yet: helicon-sae.test.ts has the node after it);
  // the chain checks without avgAcceptanceTime (v1.15.0 removed the check).
  '1.15.0': {
    nodeVersion: /^\{"version":"avalanchego\/1\.15\.0","databaseVersion":"v1\.4\.5","rpcProtocolVersion":"46","gitCommit":"[0-9a-f]{40}","vmVersions":\{"avm":"avalanchego\/1\.15\.0","evm":"v1\.15\.0","platform":"avalanchego\/1\.15\.0"\}\}$/,
    ...SINCE_V114,
    peerVersions: ['avalanchego/1.15.0'],
    consensus: 'lastAcceptedHeight,lastAcceptedID,longestProcessingBlock,processingBlocks',
  },
};

beforeAll(async () => {
  for (const version of SIM_VERSIONS) nodes[version] = await startSimNode({ seed: 13, validators: 200, peers: 240, healthIntervalMs: 60_000, now: () => clock, version });
  await waitFor(async () => {
    for (const s of Object.values(nodes)) if ((await raw(s.url + '/ext/health')).status !== 200) return false;
    return true;
  });
});
afterAll(async () => {
  for (const s of Object.values(nodes)) await s.close();
});

describe.each([...SIM_VERSIONS])('v%s: what differs between the versions', (version) => {
  const x = SHAPE[version];
  const url = () => nodes[version].url;
  const subnet = async () => ((await result(url(), '/ext/bc/P', 'platform.getBlockchains')).blockchains as { subnetID: string }[])[2]!.subnetID;

  it('info.getNodeVersion and info.upgrades (absent before v1.11.11; the next upgrade unscheduled, last)', async () => {
    expect((await rpc(url(), '/ext/info', 'info.getNodeVersion')).body).toMatch(/^\{"jsonrpc":"2\.0","result":(.*),"id":1\}\n$/);
    expect(JSON.stringify(await result(url(), '/ext/info', 'info.getNodeVersion'))).toMatch(x.nodeVersion);
    const u = await rpc(url(), '/ext/info', 'info.upgrades');
    if (x.upgrades === null) return expect(u.body).toBe(cantFind('info.Upgrades'));
    expect(Object.keys(u.json.result).join()).toBe(x.upgrades);
    // 1.15.0: Helicon scheduled on mainnet (upgrade.Mainnet), nothing after it; the others: the next one unscheduled.
    expect(Object.values(u.json.result).at(-1)).toBe(version === '1.15.0' ? '2026-09-22T15:00:00Z' : '9999-12-01T00:00:00Z');
  });

  it('info.peers: the members of a peer, the versions around the node, observedSubnetUptimes before v1.11.12', async () => {
    const peers = (await result(url(), '/ext/info', 'info.peers')).peers as any[];
    for (const p of peers) expect([Object.keys(p).join(), p.trackedSubnets[0]]).toEqual([x.peer, PRIMARY]);
    expect([...new Set(peers.map((p) => p.version))].sort()).toEqual(x.peerVersions);
    if (version !== '1.11.7') return;
    // The uptime a peer reported for the subnet both track (the node validates it); {} for the others.
    const l1 = await subnet();
    for (const p of peers) expect(p.observedSubnetUptimes).toEqual(p.trackedSubnets.includes(l1) ? { [l1]: p.observedUptime } : {});
    expect(peers.some((p) => Object.keys(p.observedSubnetUptimes).length > 0)).toBe(true);
  });

  it('health: the node-wide checks and the members of the network, diskspace and chain messages', async () => {
    const h = JSON.parse((await raw(url() + '/ext/health')).body);
    const l1Chain = ((await result(url(), '/ext/bc/P', 'platform.getBlockchains')).blockchains as { id: string }[])[2]!.id;
    expect(Object.keys(h.checks)).toEqual([...['C', 'P', 'X', l1Chain], ...x.checks].sort((a, b) => (a < b ? -1 : 1)));
    expect(Object.keys(h.checks.network.message).join()).toBe(x.network);
    expect(Object.keys(h.checks.diskspace.message).join()).toBe(version === '1.14.2' || version === '1.15.0' ? 'availableDiskBytes,availableDiskPercentage' : 'availableDiskBytes');
    for (const c of ['P', l1Chain]) {
      expect(Object.keys(h.checks[c].message.networking).join(), c).toBe(x.networking);
      expect(Object.keys(h.checks[c].message.engine.consensus).join(), c).toBe(x.consensus);
    }
    expect(h.healthy).toBe(true);
  });

  it('P-Chain: validator members (deprecated ones included), the subnet (L1 from Etna, else permissioned), the Etna methods', async () => {
    const own = nodes[version].nodeId(0);
    const [mine] = (await result(url(), '/ext/bc/P', 'platform.getCurrentValidators', { nodeIDs: [own] })).validators;
    expect(Object.keys(mine).join()).toBe(`${x.validator},delegators`);
    if (x.validator.includes('rewardOwner,')) expect(mine.rewardOwner).toEqual(mine.validationRewardOwner);
    if (x.validator.includes('stakeAmount')) expect(mine.stakeAmount).toBe(mine.weight);
    const subnetValidators = (await result(url(), '/ext/bc/P', 'platform.getCurrentValidators', { subnetID: await subnet() })).validators as any[];
    for (const v of subnetValidators) expect(Object.keys(v).join()).toBe(x.subnetValidator);
    const proposed = await rpc(url(), '/ext/bc/P', 'platform.getValidatorsAt', { height: 'proposed' });
    for (const method of ['platform.getFeeState', 'platform.getValidatorFeeState', 'platform.getProposedHeight']) {
      const r = await rpc(url(), '/ext/bc/P', method);
      if (x.etna) expect(r.json.result, method).toBeDefined();
      else expect(r.body, method).toBe(cantFind(method.replace('.get', '.Get')));
    }
    if (x.etna) expect(Object.keys(proposed.json.result).length).toBeGreaterThan(100);
    else expect(proposed.json.error.message).toBe("couldn't unmarshal an argument. Ensure arguments are valid and properly formatted. See documentation for example calls");
  });

  it('GET /ext/metrics: the naming and poll reasons of the version', async () => {
    const body = (await raw(url() + '/ext/metrics')).body;
    const reasons = [...new Set([...body.matchAll(/^avalanche_snowman_poll_count\{chain="P",reason="([a-z_]+)"\}/gm)].map((m) => m[1]))];
    const naming = { '1.11.7': 'v1.11.6', '1.12.2': 'v1.11.8', '1.13.5': 'v1.11.8', '1.14.2': 'v1.11.8', '1.15.0': 'v1.11.8' }[version];
    expect(body.includes('\navalanche_P_blks_accepted_count ')).toBe(naming === 'v1.11.6');
    expect(reasons).toEqual({ '1.11.7': [], '1.12.2': ['early_alpha_conf', 'early_alpha_pref', 'early_fail', 'exhausted'], '1.13.5': ['early_alpha', 'early_fail', 'exhausted'], '1.14.2': ['early_alpha', 'early_fail', 'exhausted'], '1.15.0': ['early_alpha', 'early_fail', 'exhausted'] }[version]);
    expect(/^avalanche_snowman_consensus_latencies_count\{/m.test(body)).toBe(version === '1.13.5' || version === '1.14.2' || version === '1.15.0');
  });
});

describe('v1.13.5: ACP-176 in CurrentACPs (the others list none)', () => {
  it('info.acps: ACP-176 with a support share above 50 % (v1.13.x peers), weights as avalanchego tallies them', async () => {
    const url = nodes['1.13.5'].url;
    const acps = (await result(url, '/ext/info', 'info.acps')).acps;
    expect(Object.keys(acps)).toEqual(['176']);
    const t = acps['176'];
    expect(Object.keys(t)).toEqual(['supportWeight', 'supporters', 'objectWeight', 'objectors', 'abstainWeight']);
    expect([t.objectors, t.objectWeight]).toEqual([[], '0']);
    expect(t.supporters).toEqual(byJson(t.supporters));
    const total = BigInt((await result(url, '/ext/bc/P', 'platform.getTotalStake')).weight);
    expect(BigInt(t.supportWeight) + BigInt(t.objectWeight) + BigInt(t.abstainWeight)).toBe(total);
    const share = Number((BigInt(t.supportWeight) * 10_000n) / total) / 10_000;
    expect(share).toBeGreaterThan(0.5);
    expect(share).toBeLessThan(0.75);
    // the supporters are exactly the connected validator peers on v1.13.x, weighted as getValidatorsAt
    const peers = (await result(url, '/ext/info', 'info.peers')).peers as any[];
    const at = await result(url, '/ext/bc/P', 'platform.getValidatorsAt', { height: 'proposed' });
    const expected = peers.filter((p) => p.version.startsWith('avalanchego/1.13.') && at[p.nodeID]).map((p) => p.nodeID);
    expect(t.supporters).toEqual(byJson(expected));
    expect(t.supportWeight).toBe(expected.reduce((s: bigint, id: string) => s + BigInt(at[id].weight), 0n).toString());
    for (const p of peers) expect(p.supportedACPs).toEqual(p.version.startsWith('avalanchego/1.13.') ? [176] : []);
    for (const v of ['1.11.7', '1.12.2', '1.14.2'] as const) expect(await result(nodes[v].url, '/ext/info', 'info.acps'), v).toEqual({ acps: {} });
  });
});

describe('what is the same on every version', () => {
  const calls: Array<[string, string, unknown?]> = [
    ['/ext/info', 'info.getNodeID'],
    ['/ext/info', 'info.getNodeIP'],
    ['/ext/info', 'info.getNetworkID'],
    ['/ext/info', 'info.getNetworkName'],
    ['/ext/info', 'info.isBootstrapped', { chain: 'P' }],
    ['/ext/info', 'info.isBootstrapped', { chain: 'Q' }],
    ['/ext/info', 'info.uptime'],
    ['/ext/info', 'info.getVMs'],
    ['/ext/info', 'info.getTxFee'],
    ['/ext/info', 'info.getFoo'],
    ['/ext/info', 'platform.getHeight'],
    ['/ext/info', 'info.isBootstrapped', { chain: 5 }],
    ['/ext/bc/P', 'platform.getHeight'],
    ['/ext/bc/P', 'platform.getCurrentValidators', { nodeIDs: 'x' }],
    ['/ext/bc/P', 'platform.getValidatorsAt', { height: 5 }],
    ['/ext/bc/P', 'platform.getTotalStake'],
    ['/ext/bc/P', 'platform.getCurrentSupply'],
    ['/ext/bc/P', 'platform.getMinStake'],
    ['/ext/bc/P', 'platform.getBlockchains'],
    ['/ext/bc/X', 'avm.getHeight'],
    ['/ext/bc/C/rpc', 'eth_blockNumber', []],
    ['/ext/bc/C/rpc', 'eth_foo', []],
    ['/ext/index/P/block', 'index.getLastAccepted', { encoding: 'hex' }],
    ['/ext/index/X/tx', 'index.getLastAccepted', {}],
    ['/ext/index/C/block', 'index.getContainerRange', { startIndex: 0, numToFetch: 0 }],
  ];

  it('JSON-RPC answers, errors and headers are byte for byte equal', async () => {
    for (const [path, method, params] of calls) {
      const body = JSON.stringify({ jsonrpc: '2.0', id: 7, method, ...(params === undefined ? {} : { params }) });
      const b = await post(nodes['1.14.2'].url + path, body);
      for (const v of ['1.11.7', '1.12.2', '1.13.5', '1.15.0'] as const) {
        const a = await post(nodes[v].url + path, body);
        if (v === '1.15.0' && method === 'platform.getValidatorsAt') {
          // ACP-236: the own validator is auto-renewed there, its weight grown by the rewards it re-staked
          // (the same as its getCurrentValidators entry); every other validator weighs the same.
          const own = nodes[v].nodeId();
          const [mine] = (await result(nodes[v].url, '/ext/bc/P', 'platform.getCurrentValidators', { nodeIDs: [own] })).validators;
          const at = JSON.parse(a.body).result;
          expect(at[own].weight, v).toBe((BigInt(mine.weight) + BigInt(mine.delegatorWeight)).toString());
          const others = (x: Record<string, unknown>) => Object.fromEntries(Object.entries(x).filter(([id]) => id !== own));
          expect(others(at), v).toEqual(others(JSON.parse(b.body).result));
          continue;
        }
        expect([a.status, a.body, a.headers['content-type'], a.headers['node-id']], `${v} ${method}`).toEqual([b.status, b.body, b.headers['content-type'], b.headers['node-id']]);
      }
    }
  });

  it('transport errors: 415 without content type (kept), 405, 404, malformed JSON', async () => {
    const cases: Array<[string, Parameters<typeof raw>[1]]> = [
      ['/ext/info', { method: 'POST', body: '{"jsonrpc":"2.0","id":1,"method":"info.getNodeVersion"}' }],
      ['/ext/info', { method: 'POST', body: '{}' }],
      ['/ext/bc/P', {}],
      ['/ext/nothing', {}],
      ['/ext/admin', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' }],
      ['/ext/info', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,' }],
      ['/ext/health/liveness', {}],
    ];
    expect((await raw(nodes['1.11.7'].url + '/ext/info', cases[0]![1])).body).toBe('rpc: unrecognized Content-Type: ');
    for (const [path, o] of cases) {
      const b = await raw(nodes['1.14.2'].url + path, o);
      for (const v of ['1.11.7', '1.12.2', '1.13.5', '1.15.0'] as const) {
        const a = await raw(nodes[v].url + path, o);
        expect([a.status, a.body, a.headers['content-type']], `${v} ${path}`).toEqual([b.status, b.body, b.headers['content-type']]);
      }
    }
  });

  it('health "not yet run" at start (the checks of each version), the empty index, the uptime error of a non-validator', async () => {
    const fresh = await Promise.all(SIM_VERSIONS.map((version) => startSimNode({ seed: 13, validators: 30, peers: 30, version, healthFirstRunMs: 600_000, now: () => clock })));
    try {
      const got = await Promise.all(fresh.map(async (s) => ({ h: await raw(s.url + '/ext/health'), r: await raw(s.url + '/ext/health/readiness') })));
      const ref = JSON.parse(got.at(-1)!.h.body);
      got.forEach(({ h, r }, i) => {
        expect([h.status, r.status, r.body]).toEqual([503, 503, got.at(-1)!.r.body]);
        const checks = JSON.parse(h.body).checks;
        for (const c of Object.values(checks)) expect(c).toEqual(NOT_YET_RUN);
        expect(Object.keys(checks)).toEqual(Object.keys(ref.checks).filter((k) => k !== 'futureupgrade' || ['1.14.2', '1.15.0'].includes(SIM_VERSIONS[i]!)).filter((k) => k !== 'bls' || i > 0));
      });
      for (const s of fresh) await s.setScenario('index-empty');
      const index = await Promise.all(fresh.map((s) => rpc(s.url, '/ext/index/C/block', 'index.getLastAccepted', {})));
      for (const r of index) expect(r.body).toBe(index.at(-1)!.body);
      expect(index[0]!.json.error.message).toBe('no containers have been accepted');
      for (const s of fresh) await s.setScenario('not-a-validator');
      const uptime = await Promise.all(fresh.map((s) => rpc(s.url, '/ext/info', 'info.uptime')));
      for (const r of uptime) expect(r.body).toBe(uptime.at(-1)!.body);
      expect(uptime[0]!.json.error.message).toBe("couldn't get node uptime: node is not a validator");
    } finally {
      await Promise.all(fresh.map((s) => s.close()));
    }
  });
});

describe('versions per node, options and CLI', () => {
  it("versions: ['1.13.5','1.14.2']: each node answers as its own version and sees the other as such", async () => {
    const s = await startSimNode({ nodes: 2, versions: ['1.13.5', '1.14.2'], seed: 5, validators: 40, peers: 50 });
    try {
      expect((await result(s.nodeUrl(0), '/ext/info', 'info.getNodeVersion')).version).toBe('avalanchego/1.13.5');
      expect((await result(s.nodeUrl(1), '/ext/info', 'info.getNodeVersion')).version).toBe('avalanchego/1.14.2');
      const st = JSON.parse((await raw(s.controlUrl + '/sim/state')).body);
      expect(st.nodes.map((n: any) => n.version)).toEqual(['1.13.5', '1.14.2']);
      // node 0 (1.13.5) sees node 1: no upgradeTime field, nothing announced (v1.14.2 has no current ACPs)
      const on0 = (await result(s.nodeUrl(0), '/ext/info', 'info.peers', { nodeIDs: [s.nodeId(1)] })).peers[0];
      expect(on0.version).toBe('avalanchego/1.14.2');
      expect('upgradeTime' in on0).toBe(false);
      expect(on0.supportedACPs).toEqual([]);
      // node 1 (1.14.2) sees node 0: upgradeTime 0 (a v1.13 peer announces none), ACP-176 dropped (not current in 1.14.2)
      const on1 = (await result(s.nodeUrl(1), '/ext/info', 'info.peers', { nodeIDs: [s.nodeId(0)] })).peers[0];
      expect(on1).toMatchObject({ version: 'avalanchego/1.13.5', upgradeTime: 0, supportedACPs: [], objectedACPs: [] });
      expect((await result(s.nodeUrl(0), '/ext/info', 'info.acps')).acps['176'].supporters).not.toContain(s.nodeId(1));
      // both 1.13.5: each counts the other as an ACP-176 supporter
      const t = await startSimNode({ nodes: 2, version: '1.13.5', seed: 5, validators: 40, peers: 50 });
      try {
        expect((await result(t.nodeUrl(1), '/ext/info', 'info.peers', { nodeIDs: [t.nodeId(0)] })).peers[0].supportedACPs).toEqual([176]);
        expect((await result(t.nodeUrl(1), '/ext/info', 'info.acps')).acps['176'].supporters).toContain(t.nodeId(0));
      } finally {
        await t.close();
      }
    } finally {
      await s.close();
    }
  });

  it("versions: ['1.11.7','1.12.2','1.14.2']: a v1.14.2 node stores upgradeTime 0 for both older siblings; a v1.11.7 node shows observedSubnetUptimes", async () => {
    const s = await startSimNode({ nodes: 3, versions: ['1.11.7', '1.12.2', '1.14.2'], seed: 5, validators: 40, peers: 50 });
    try {
      const on2 = (await result(s.nodeUrl(2), '/ext/info', 'info.peers', { nodeIDs: [s.nodeId(0), s.nodeId(1)] })).peers as any[];
      expect(on2.map((p) => [p.version, p.upgradeTime]).sort()).toEqual([['avalanchego/1.11.7', 0], ['avalanchego/1.12.2', 0]]);
      const on0 = (await result(s.nodeUrl(0), '/ext/info', 'info.peers', { nodeIDs: [s.nodeId(2)] })).peers[0];
      expect(on0.version).toBe('avalanchego/1.14.2');
      // Each simulated node runs a subnet of its own: none tracked by both, so no uptime for one.
      expect(on0.observedSubnetUptimes).toEqual({});
    } finally {
      await s.close();
    }
  });

  it('upgrade-pending schedules the next upgrade of the version (Granite on 1.13.5, Fortuna as fUpgradeTime on 1.12.2) and moves peers to the next release', async () => {
    for (const [version, key, next] of [['1.13.5', 'graniteTime', 'avalanchego/1.14.2'], ['1.12.2', 'fUpgradeTime', 'avalanchego/1.13.0']] as const) {
      const s = await startSimNode({ version, seed: 6, validators: 60, peers: 70, now: () => clock });
      try {
        await s.setScenario('upgrade-pending');
        const u = await result(s.url, '/ext/info', 'info.upgrades');
        expect(Date.parse(u[key]) - Math.floor(clock / 1000) * 1000, version).toBe(3 * 86_400_000);
        expect(Object.keys(u).at(-1)).toBe(key);
        const versions = new Set(((await result(s.url, '/ext/info', 'info.peers')).peers as any[]).map((p) => p.version));
        expect(versions).toContain(next);
      } finally {
        await s.close();
      }
    }
  });

  it('an unknown version is refused; --node-version parses', async () => {
    await expect(startSimNode({ version: '1.12.0' as never })).rejects.toThrow(/unknown version "1.12.0"; valid: 1.11.7, 1.12.2, 1.13.5, 1.14.2/);
    for (const v of SIM_VERSIONS) expect(parseSimArgs(['--node-version', v]).options.version).toBe(v);
    expect(parseSimArgs([]).options.version).toBeUndefined();
    expect(() => parseSimArgs(['--node-version=2.0.0'])).toThrow(/--node-version/);
  });
});
