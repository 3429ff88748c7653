// The index API of the simulated node (POST /ext/index/{P,C,X}/block, /ext/index/X/{tx,vtx}):
// indexer/service.go and indexer/index.go, including the empty index (index-empty).
// Part of the simulated avalanchego node, an independent oracle ON PURPOSE: this package shares no
// code with the exporter (src/) and has its own CB58, JSON-RPC envelope and constants, so
// that a bug in the exporter's decoding cannot hide behind the same bug here. Do not "fix" this
// duplication (test/sim/independence.test.ts fails on any import from outside this package).
import { sha256 } from './deterministic-random.js';
import { rfc3339Nano } from './go-format.js';
import type { Container } from './index-containers.js';
import { Args, ARG_ERROR, RpcError, type Service } from './json-rpc-envelope.js';
import type { ChainAlias } from './mainnet-constants.js';
import type { NodeModel } from './node-model.js';


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

/** indexer/index.go errNoneAccepted: the index has no container yet. */
const NONE_ACCEPTED = 'no containers have been accepted';

/**
 * An index without any container (index-empty), as indexer/index.go answers it: getLastAccepted
 * and getContainerRange (once numToFetch is valid) errNoneAccepted; getContainerByIndex
 * "no container at index N"; getContainerByID / getIndex "not found"; isAccepted false.
 */
function emptyIndexService(): Service {
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

export function indexService(m: NodeModel, chain: ChainAlias, kind: IndexKind): Service {
  if (m.active.index === 'empty') return emptyIndexService();
  const frozenKind = kind === 'block' ? null : kind;
  const last = (): Container => (frozenKind ? m.index.frozenContainer(frozenKind, m.index.frozen[frozenKind].index) : m.lastIndexed(chain));
  const byIndex = (i: number): Container | null => {
    if (frozenKind) return i >= 0 && i <= m.index.frozen[frozenKind].index ? m.index.frozenContainer(frozenKind, i) : null;
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
