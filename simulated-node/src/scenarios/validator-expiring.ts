// The `validator-expiring` scenario of the simulated node: its help line, its README row and the hooks it sets
// (scenario.ts says which service consults each hook; index.ts lists every scenario).
// Part of the simulated avalanchego node, an independent oracle ON PURPOSE: this package shares no
// code with the exporter (src/) and has its own CB58, JSON-RPC envelope and constants, so
// that a bug in the exporter's decoding cannot hide behind the same bug here. Do not "fix" this
// duplication (test/sim/independence.test.ts fails on any import from outside this package).
import { h32 } from '../deterministic-random.js';
import { DAY } from '../mainnet-constants.js';
import { defineScenario, type Scenario } from './scenario.js';

/**
 * The own validation with a fixed end `afterSwitchS` after the switch (seeded by `salt` within its
 * last hour), started >= 14 days before it (validator-ending's too).
 */
export function ownValidationEndingAfterSwitch(afterSwitchS: number, salt: number): NonNullable<NonNullable<Scenario['validators']>['ownPeriod']> {
  return (n, base, nowS) => {
    const end = n.switchS + afterSwitchS - (h32(n.seed, salt) % 3600);
    const p = base(nowS);
    return { k: p.k, start: Math.min(p.start, end - 14 * DAY), end };
  };
}

export const validatorExpiring = defineScenario({
  name: 'validator-expiring',
  help: 'own validation ends within 36 h',
  effect: 'own `endTime` ≈ 30 h after the switch (fixed)',
  validators: {
    // A fixed end ~30 h after the switch (seeded within its last hour), started >= 14 days before.
    ownPeriod: ownValidationEndingAfterSwitch(30 * 3600, 77),
  },
});
