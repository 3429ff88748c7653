// The X-chain API of the simulated node (POST /ext/bc/X): the avm methods the exporter may call.
// Part of the simulated avalanchego node, an independent oracle ON PURPOSE: this package shares no
// code with the exporter (src/) and has its own CB58, JSON-RPC envelope and constants, so
// that a bug in the exporter's decoding cannot hide behind the same bug here. Do not "fix" this
// duplication (test/sim/independence.test.ts fails on any import from outside this package).
import { Args, ARG_ERROR, RpcError, type Service } from './json-rpc-envelope.js';
import type { NodeModel } from './node-model.js';

export function avmService(m: NodeModel): Service {
  return {
    GetHeight: () => ({ height: String(m.height('X')) }),
    GetTxStatus: (a: Args) => {
      const tx = a.id('txID');
      if (!tx) throw new RpcError(ARG_ERROR);
      return { status: 'Unknown' };
    },
  };
}
