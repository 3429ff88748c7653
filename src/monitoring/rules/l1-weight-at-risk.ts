// Issue 27 item 4: the share of an L1's validator weight whose balances run out within a week. A third of
// the weight out of balance halts the L1, and it stays halted after a top-up (builders-hub#4132): the
// runway of each watched validator (AvalancheL1ValidatorBalanceLow) does not see the others'. Part of the
// validator group (validator.rules.yaml), in its own file to keep validator.ts short.
import { percent } from '../duration.js';
import type { AlertRule, RuleContext } from './types.js';

export function l1WeightAtRiskRules({ t, q }: RuleContext): AlertRule[] {
  const tier = (severity: AlertRule['severity'], above: number, comment?: string): AlertRule => ({
    alert: 'AvalancheL1WeightAtRisk',
    ...(comment ? { comment } : {}),
    expr: `${q.sel('avax_l1_weight_at_risk_ratio')} >= ${above}`,
    for: '10m',
    severity,
    summary: '{{ $labels.target }}: {{ $value | humanizePercentage }} of the weight of L1 {{ $labels.subnet }} runs out of balance within 7 days',
    description: `Validators holding {{ $value | humanizePercentage }} of the weight of L1 {{ $labels.subnet }} (seen by {{ $labels.target }}) have less than 7 days of balance at the current fee price, or none (threshold ${percent(above)} %). Once a third of the weight is out of balance the L1 halts, and it stays halted after a top-up (builders-hub#4132). Ask the operators of those validators to top up (IncreaseL1ValidatorBalanceTx) now.`,
  });
  return [
    tier(
      'warning',
      t.l1WeightAtRiskWarning,
      `Per watched L1: avax_l1_weight_at_risk_ratio, the share of its weight whose balance / fee price is under
7 days, inactive validators included (derive/l1-weight-at-risk.ts, from the L1's validator list).
thresholds.l1WeightAtRiskWarning and l1WeightAtRiskCritical (before the third that halts the L1). Silent
for a permissioned subnet and before Etna (no series).`,
    ),
    tier('critical', t.l1WeightAtRiskCritical),
  ];
}
