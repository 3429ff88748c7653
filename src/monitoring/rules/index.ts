/** Every rule group, in GROUP_NAMES order. Add a group here and to GROUP_NAMES (settings.ts). */
import type { GroupName } from '../settings.js';
import { exporterRules } from './exporter.js';
import { fleetRules } from './fleet.js';
import { indexRules } from './index-api.js';
import { nodeInternalsRules } from './node-internals.js';
import { nodeRules } from './node.js';
import type { RuleGroupDef } from './types.js';
import { upgradesRules } from './upgrades.js';
import { validatorRules } from './validator.js';

export const RULE_GROUPS: Readonly<Record<GroupName, RuleGroupDef>> = {
  node: nodeRules,
  validator: validatorRules,
  index: indexRules,
  upgrades: upgradesRules,
  fleet: fleetRules,
  exporter: exporterRules,
  'node-internals': nodeInternalsRules,
};

/** alerts/<name>.rules.yaml */
export const ruleFileName = (g: GroupName): string => `${g}.rules.yaml`;
