import { describe, expect, it } from 'vitest';
import { nodeInfo, toSamples } from '../../src/collectors/node-info.js';
import { HttpError, RpcError, TimeoutError } from '../../src/node-client/index.js';
import { InfoGetNetworkIDResult, InfoGetNetworkNameResult, InfoGetNodeVersionResult } from '../../src/schemas/info.js';
import { result } from '../fixtures/load.js';
import { assertContract, defaultAnswers, fakeClient, lines, makeCtx } from './fake.js';
import { SELF } from '../fixtures/ids.js';

const version = InfoGetNodeVersionResult.parse(result('info.getNodeVersion', 'default'));
const networkId = InfoGetNetworkIDResult.parse(result('info.getNetworkID', 'default'));
const networkName = InfoGetNetworkNameResult.parse(result('info.getNetworkName', 'default'));

const answers = () => defaultAnswers('info.getNodeID', 'info.getNodeVersion', 'info.getNetworkID', 'info.getNetworkName');

describe('node-info toSamples', () => {
  it.each([
    [
      'default: full identity and one series per VM',
      { nodeId: SELF, version, networkId, networkName, ip: '198.51.100.23:9651' },
      [
        `avax_node_info{database_version="v1.4.5",git_commit="6e5acf909c7a16b991142d6b3979bac5699bdb68",ip="198.51.100.23:9651",network_id="1",network_name="mainnet",node_id="${SELF}",rpc_protocol_version="45",version="avalanchego/1.14.2"} 1`,
        'avax_node_vm_info{version="avalanchego/1.14.2",vm="avm"} 1',
        'avax_node_vm_info{version="v1.14.2",vm="evm"} 1',
        'avax_node_vm_info{version="avalanchego/1.14.2",vm="platform"} 1',
        'avax_node_rpc_protocol_version 45',
      ],
    ],
    [
      'behavior: public server (empty node_id), no VMs',
      { nodeId: '', version: { ...version, vmVersions: {} }, networkId: { networkID: 5 }, networkName: { networkName: 'fuji' } },
      [
        'avax_node_info{database_version="v1.4.5",git_commit="6e5acf909c7a16b991142d6b3979bac5699bdb68",ip="",network_id="5",network_name="fuji",node_id="",rpc_protocol_version="45",version="avalanchego/1.14.2"} 1',
        'avax_node_rpc_protocol_version 45',
      ],
    ],
    [
      'behavior: no rpcProtocolVersion (an old node) → no avax_node_rpc_protocol_version rather than a wrong 0',
      { nodeId: '', version: { ...version, rpcProtocolVersion: '', vmVersions: {} }, networkId: { networkID: 5 }, networkName: { networkName: 'fuji' } },
      [
        'avax_node_info{database_version="v1.4.5",git_commit="6e5acf909c7a16b991142d6b3979bac5699bdb68",ip="",network_id="5",network_name="fuji",node_id="",rpc_protocol_version="",version="avalanchego/1.14.2"} 1',
      ],
    ],
  ])('%s', (_n, value, want) => {
    const s = toSamples(value);
    assertContract('node-info', s);
    expect(lines(s)).toEqual(want);
  });
});

describe('node-info collect', () => {
  it('default: publishes the node ID, BLS key and version as its value, passes the signal', async () => {
    const { client, calls } = fakeClient(answers());
    const { ctx } = makeCtx(nodeInfo, client);
    const r = await nodeInfo.collect(ctx);
    expect(r.errors).toEqual([]);
    expect(r.value?.nodeId).toBe(SELF);
    expect(r.value?.blsPublicKey).toMatch(/^0x[0-9a-f]{96}$/);
    expect(r.value?.version?.version).toBe('avalanchego/1.14.2');
    expect(r.samples.find((s) => s.name === 'avax_node_info')?.labels['node_id']).toBe(SELF);
    expect(calls.every((c) => c.signal === ctx.signal)).toBe(true);
  });
  it.each([
    ['behavior: getNodeID absent (404)', new HttpError('info.getNodeID', 404, '404 page not found')],
    ['behavior: getNodeID absent (cannot find method)', new RpcError('info.getNodeID', -32000, 'rpc: can\'t find method "info.GetNodeID"')],
  ])('%s → empty node_id and success, logged once', async (_n, err) => {
    const { client } = fakeClient({ ...answers(), 'info.getNodeID': err });
    const { ctx, lines: log } = makeCtx(nodeInfo, client);
    const r = await nodeInfo.collect(ctx);
    expect(r.errors).toEqual([]);
    expect(r.value?.nodeId).toBe('');
    expect(r.samples.find((s) => s.name === 'avax_node_info')?.labels['node_id']).toBe('');
    await nodeInfo.collect(ctx);
    expect(log).toHaveLength(1);
  });
  it('behavior: reference target skips getNodeID', async () => {
    const { client, calls } = fakeClient(answers());
    const { ctx } = makeCtx(nodeInfo, client, { target: { reference: true } });
    const r = await nodeInfo.collect(ctx);
    expect(r.errors).toEqual([]);
    expect(calls.map((c) => c.method)).not.toContain('info.getNodeID');
    expect(r.value?.nodeId).toBe('');
    expect(r.samples.find((s) => s.name === 'avax_node_info')?.labels['node_id']).toBe('');
  });
  it('error: getNodeVersion times out → VM series absent, error returned, others unaffected', async () => {
    const { client } = fakeClient({ ...answers(), 'info.getNodeVersion': new TimeoutError('info.getNodeVersion', 5000) });
    const { ctx } = makeCtx(nodeInfo, client);
    const r = await nodeInfo.collect(ctx);
    expect(r.errors.map((e) => e.name)).toEqual(['TimeoutError']);
    expect(r.samples).toEqual([]);
    expect(r.value?.nodeId).toBe(SELF);
  });
  it('error: getNetworkName fails → VM series still exported', async () => {
    const { client } = fakeClient({ ...answers(), 'info.getNetworkName': new RpcError('info.getNetworkName', -32000, 'boom') });
    const { ctx } = makeCtx(nodeInfo, client);
    const r = await nodeInfo.collect(ctx);
    expect(r.errors).toHaveLength(1);
    expect(r.samples.map((s) => s.name)).toEqual(['avax_node_vm_info', 'avax_node_vm_info', 'avax_node_vm_info', 'avax_node_rpc_protocol_version']);
  });
  it('error: getNodeID times out → the last known node ID keeps the series stable', async () => {
    const { client } = fakeClient({ ...answers(), 'info.getNodeID': new TimeoutError('info.getNodeID', 5000) });
    const { ctx } = makeCtx(nodeInfo, client, { previous: { nodeId: SELF, blsPublicKey: '' } });
    const r = await nodeInfo.collect(ctx);
    expect(r.errors).toHaveLength(1);
    expect(r.value?.nodeId).toBe(SELF);
    expect(r.samples.find((s) => s.name === 'avax_node_info')?.labels['node_id']).toBe(SELF);
  });
});

describe('node-info: the ip label (node-ip, info.getNodeIP)', () => {
  const ipOf = (r: { samples: readonly { name: string; labels: Record<string, string> }[] }) => r.samples.find((s) => s.name === 'avax_node_info')?.labels['ip'];
  it.each([
    ['default: the address node-ip published', { 'node-ip': { ip: '198.51.100.23:9651' } }, '198.51.100.23:9651'],
    ['behavior: node-ip off, failing or not run yet → empty', {}, ''],
    ['behavior: a public server (no info.getNodeIP) → empty', { 'node-ip': { ip: '' } }, ''],
  ])('%s', async (_n, values, want) => {
    const { client, calls } = fakeClient(answers());
    const { ctx } = makeCtx(nodeInfo, client, { values });
    const r = await nodeInfo.collect(ctx);
    expect(r.errors).toEqual([]);
    expect(ipOf(r)).toBe(want);
    // node-ip's request, not this collector's.
    expect(calls.map((c) => c.method)).not.toContain('info.getNodeIP');
  });
  it('default: node-info does not wait for node-ip in a cycle (readsLatest, no extra wave)', () => {
    expect(nodeInfo.reads).not.toContain('node-ip');
    expect(nodeInfo.readsLatest).toEqual(['node-ip']);
  });
});

