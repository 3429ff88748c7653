// The `rewards-lost` scenario of the simulated node: its help line, its README row and the hooks it sets
// (scenario.ts says which service consults each hook; index.ts lists every scenario).
// Part of the simulated avalanchego node, an independent oracle ON PURPOSE: this package shares no
// code with the exporter (src/) and has its own CB58, JSON-RPC envelope and constants, so
// that a bug in the exporter's decoding cannot hide behind the same bug here. Do not "fix" this
// duplication (test/sim/independence.test.ts fails on any import from outside this package).
import { DAY } from '../mainnet-constants.js';
import { defineScenario } from './scenario.js';

export const rewardsLost = defineScenario({
  name: 'rewards-lost',
  help: 'info.uptime ~60/~10 and own validation started 24 d ago, ends in 6 d: 80% no longer reachable',
  effect:
    '`info.uptime` ≈ `"60.0000"` / `"10.0000"` (peers holding ~10 % of the stake see ≥ 81, the ' +
    'rest ≈ 54-64; `observedUptime` of the peers ≈ 60); own primary validation `startTime` = ' +
    'switch − 24 d, `endTime` = switch + 6 d: best achievable 0.6·0.8 + 0.2 = 0.68 < 0.8',
  // ~10 % of the stake still sees the node above 80 %, the rest around 59 %: info.uptime ~60 / ~10.
  observedUptime: (_n, p) => (p.orderPos < 0.1 ? 81 + p.r * 4 + p.drift * 0.5 : 54 + p.r * 10 + p.drift),
  validators: {
    // 24 of 30 days done at ~60 %: at best 0.6 x 0.8 + 0.2 = 0.68 < 0.8 by the end.
    ownPeriod: (n, base, nowS) => ({ k: base(nowS).k, start: n.switchS - 24 * DAY, end: n.switchS + 6 * DAY }),
  },
});
