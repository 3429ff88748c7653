import { acpActivatedDerivation } from './acp-activated.js';
import { acpNodeVote } from './acp-node-vote.js';
import { behindReference } from './behind-reference.js';
import { bootstrapTarget } from './bootstrap-target.js';
import { cchainExecutionLag } from './cchain-execution-lag.js';
import { delegationCapacity } from './delegation-capacity.js';
import type { Derivation, FleetDerivation } from './define.js';
import { l1Runway } from './l1-runway.js';
import { l1WeightAtRisk } from './l1-weight-at-risk.js';
import { maxAchievable } from './max-achievable-uptime.js';
import { newerVersion } from './newer-version-ratio.js';
import { rewardingStakeRequirementDerivation } from './rewarding-stake-requirement.js';
import { subnetConnectedStake } from './subnet-connected-stake.js';
import { subnetHealthyDerivation } from './subnet-healthy.js';
import { subnetValidators } from './subnet-validators.js';
import { uptimeConnectedStake } from './uptime-connected-stake.js';
import { vmProtocol } from './vm-protocol.js';

/** Every per-target derivation, in exposition order. Adding one = one file + one line here. */
export const DERIVATIONS: readonly Derivation[] = [newerVersion, uptimeConnectedStake, maxAchievable, rewardingStakeRequirementDerivation, delegationCapacity, l1Runway, l1WeightAtRisk, acpActivatedDerivation, subnetValidators, subnetConnectedStake, cchainExecutionLag, subnetHealthyDerivation, vmProtocol];

/** Every fleet derivation (reads the snapshots of all targets). */
export const FLEET_DERIVATIONS: readonly FleetDerivation[] = [behindReference, acpNodeVote, bootstrapTarget];
