import { describe, expect, it } from 'vitest';
import { nodeInfo, toSamples } from '../../src/collectors/node-info.js';
import { HttpError, RpcError, TimeoutError } from '../../src/node-client/index.js';
import { InfoGetNetworkIDResult, InfoGetNetworkNameResult, InfoGetNodeVersionResult } from '../../src/schemas/info.js';
import { result } from '../fixtures/load.js';
import { assertContract, fakeClient, lines, makeCtx } from './fake.js';

const SELF = 'NodeID-LDRTivJGhE6iCWtfByTZHR6yj7q3cNkXv';
const version = InfoGetNodeVersionResult.parse(result('info.getNodeVersion', 'default'));
const networkId = InfoGetNetworkIDResult.parse(result('info.getNetworkID', 'default'));
const networkName = InfoGetNetworkNameResult.parse(result('info.getNetworkName', 'default'));

const answers = () => ({
  'info.getNodeID': result('info.getNodeID', 'default'),
  'info.getNodeVersion': result('info.getNodeVersion', 'default'),
  'info.getNetworkID': result('info.getNetworkID', 'default'),
  'info.getNetworkName': result('info.getNetworkName', 'default'),
});

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
      ],
    ],
    [
      'behavior: public server (empty node_id), no VMs',
      { nodeId: '', version: { ...version, vmVersions: {} }, networkId: { networkID: 5 }, networkName: { networkName: 'fuji' } },
      [
        'avax_node_info{database_version="v1.4.5",git_commit="6e5acf909c7a16b991142d6b3979bac5699bdb68",ip="",network_id="5",network_name="fuji",node_id="",rpc_protocol_version="45",version="avalanchego/1.14.2"} 1',
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
    const { ctx } = makeCtx(client);
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
    const { ctx, lines: log } = makeCtx(client);
    const r = await nodeInfo.collect(ctx);
    expect(r.errors).toEqual([]);
    expect(r.value?.nodeId).toBe('');
    expect(r.samples.find((s) => s.name === 'avax_node_info')?.labels['node_id']).toBe('');
    await nodeInfo.collect(ctx);
    expect(log).toHaveLength(1);
  });
  it('behavior: reference target skips getNodeID', async () => {
    const { client, calls } = fakeClient(answers());
    const { ctx } = makeCtx(client, { target: { reference: true } });
    const r = await nodeInfo.collect(ctx);
    expect(r.errors).toEqual([]);
    expect(calls.map((c) => c.method)).not.toContain('info.getNodeID');
    expect(r.value?.nodeId).toBe('');
    expect(r.samples.find((s) => s.name === 'avax_node_info')?.labels['node_id']).toBe('');
  });
  it('error: getNodeVersion times out → VM series absent, error returned, others unaffected', async () => {
    const { client } = fakeClient({ ...answers(), 'info.getNodeVersion': new TimeoutError('info.getNodeVersion', 5000) });
    const { ctx } = makeCtx(client);
    const r = await nodeInfo.collect(ctx);
    expect(r.errors.map((e) => e.name)).toEqual(['TimeoutError']);
    expect(r.samples).toEqual([]);
    expect(r.value?.nodeId).toBe(SELF);
  });
  it('error: getNetworkName fails → VM series still exported', async () => {
    const { client } = fakeClient({ ...answers(), 'info.getNetworkName': new RpcError('info.getNetworkName', -32000, 'boom') });
    const { ctx } = makeCtx(client);
    const r = await nodeInfo.collect(ctx);
    expect(r.errors).toHaveLength(1);
    expect(r.samples.map((s) => s.name)).toEqual(['avax_node_vm_info', 'avax_node_vm_info', 'avax_node_vm_info']);
  });
  it('error: getNodeID times out → the last known node ID keeps the series stable', async () => {
    const { client } = fakeClient({ ...answers(), 'info.getNodeID': new TimeoutError('info.getNodeID', 5000) });
    const { ctx } = makeCtx(client, { previous: { nodeId: SELF, blsPublicKey: '' } });
    const r = await nodeInfo.collect(ctx);
    expect(r.errors).toHaveLength(1);
    expect(r.value?.nodeId).toBe(SELF);
    expect(r.samples.find((s) => s.name === 'avax_node_info')?.labels['node_id']).toBe(SELF);
  });
});

describe('node-info: advertised IP (info.getNodeIP)', () => {
  const IP = '198.51.100.23:9651';
  const withIp = () => ({ ...answers(), 'info.getNodeIP': result('info.getNodeIP', 'default') });
  const ipOf = (r: { samples: readonly { name: string; labels: Record<string, string> }[] }) => r.samples.find((s) => s.name === 'avax_node_info')?.labels['ip'];

  it('default: the first run asks getNodeID and getNodeIP; the ip label and the value carry the address', async () => {
    const { client, calls } = fakeClient(withIp());
    const { ctx, lines: logged } = makeCtx(client, { options: { ipLabel: true } });
    const r = await nodeInfo.collect(ctx);
    expect(r.errors).toEqual([]);
    expect(calls.map((c) => c.method).sort()).toEqual(['info.getNetworkID', 'info.getNetworkName', 'info.getNodeID', 'info.getNodeIP', 'info.getNodeVersion']);
    expect(ipOf(r)).toBe(IP);
    expect(r.value?.ip).toBe(IP);
    expect(logged.filter((l) => String(l.args[1]).includes('advertised IP'))).toHaveLength(1);
  });

  it('behavior: after the first run, getNodeID only when the Node-Id header names another node: 2 requests per run', async () => {
    const { client, calls } = fakeClient(withIp());
    const c = client as unknown as { lastNodeIdHeader: string | undefined };
    c.lastNodeIdHeader = SELF;
    const state = new Map<string, unknown>();
    let previous: unknown;
    const perRun: string[][] = [];
    let now = 1_778_750_505_000;
    for (let i = 0; i < 4; i++) {
      // Run 3: the node restarted with another staking key (every answer now says so).
      if (i === 3) c.lastNodeIdHeader = 'NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg';
      const { ctx } = makeCtx(client, { options: { ipLabel: true }, state, previous, now });
      const before = calls.length;
      const r = await nodeInfo.collect(ctx);
      expect(r.errors).toEqual([]);
      expect(ipOf(r)).toBe(IP);
      expect(r.samples.find((s) => s.name === 'avax_node_info')?.labels['node_id']).toBe(SELF);
      perRun.push(calls.slice(before).map((x) => x.method).sort());
      previous = r.value;
      now += 60_000;
    }
    expect(perRun.slice(1)).toEqual([
      ['info.getNodeIP', 'info.getNodeVersion'],
      ['info.getNodeIP', 'info.getNodeVersion'],
      ['info.getNodeID', 'info.getNodeIP', 'info.getNodeVersion'],
    ]);
  });

  it('behavior: no Node-Id header (a proxy strips it) → getNodeID every run', async () => {
    const { client, calls } = fakeClient(withIp());
    const state = new Map<string, unknown>();
    let previous: unknown;
    for (let i = 0; i < 3; i++) {
      const r = await nodeInfo.collect(makeCtx(client, { options: { ipLabel: true }, state, previous }).ctx);
      previous = r.value;
    }
    expect(calls.filter((c) => c.method === 'info.getNodeID')).toHaveLength(3);
  });

  it.each([
    ['404', new HttpError('info.getNodeIP', 404, '404 page not found')],
    ['cannot find method', new RpcError('info.getNodeIP', -32000, 'rpc: can\'t find method "info.GetNodeIP"')],
  ])('behavior: getNodeIP absent (%s, public server) → ip empty, no failure', async (_n, err) => {
    const { client } = fakeClient({ ...answers(), 'info.getNodeIP': err });
    const { ctx } = makeCtx(client, { options: { ipLabel: true } });
    const r = await nodeInfo.collect(ctx);
    expect(r.errors).toEqual([]);
    expect(ipOf(r)).toBe('');
  });

  it('error: getNodeIP times out → failure, the last known address keeps the series stable', async () => {
    const { client } = fakeClient({ ...answers(), 'info.getNodeIP': new TimeoutError('info.getNodeIP', 5000) });
    const { ctx } = makeCtx(client, { options: { ipLabel: true }, previous: { nodeId: SELF, blsPublicKey: '', ip: IP } });
    const r = await nodeInfo.collect(ctx);
    expect(r.errors.map((e) => e.name)).toEqual(['TimeoutError']);
    expect(ipOf(r)).toBe(IP);
  });

  it('behavior: --no-collector.node-info.ip-label → no getNodeIP request, ip empty, getNodeID every run', async () => {
    const { client, calls } = fakeClient(withIp());
    const state = new Map<string, unknown>();
    let previous: unknown;
    for (let i = 0; i < 3; i++) {
      const { ctx } = makeCtx(client, { options: { ipLabel: false }, state, previous });
      const r = await nodeInfo.collect(ctx);
      expect(ipOf(r)).toBe('');
      previous = r.value;
    }
    expect(calls.filter((c) => c.method === 'info.getNodeIP')).toEqual([]);
    expect(calls.filter((c) => c.method === 'info.getNodeID')).toHaveLength(3);
  });
});
