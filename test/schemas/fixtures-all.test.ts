import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { AvmGetHeightResult } from '../../src/schemas/avm.js';
import { EthBlockNumberResult } from '../../src/schemas/evm.js';
import { HealthHealthResult, HealthLivenessResult, HealthReadinessResult } from '../../src/schemas/health.js';
import { IndexGetLastAcceptedResult } from '../../src/schemas/index-api.js';
import {
  InfoGetNetworkIDResult,
  InfoGetNetworkNameResult,
  InfoGetNodeIDResult,
  InfoGetNodeVersionResult,
  InfoIsBootstrappedResult,
  InfoPeersResult,
  InfoUpgradesResult,
  InfoAcpsResult,
  InfoUptimeResult,
  InfoGetNodeIPResult,
  InfoGetVMsResult,
} from '../../src/schemas/info.js';
import { AdminGetLoggerLevelResult } from '../../src/schemas/admin.js';
import { PlatformGetBlockchainStatusResult, PlatformGetBlockchainsResult } from '../../src/schemas/platform-chains.js';
import { PlatformGetCurrentValidatorsResult, PlatformGetHeightResult, PlatformGetTimestampResult, PlatformGetValidatorFeeStateResult } from '../../src/schemas/platform.js';
import { PlatformGetCurrentSupplyResult, PlatformGetFeeStateResult, PlatformGetMinStakeResult, PlatformGetTotalStakeResult } from '../../src/schemas/platform-economics.js';
import { PlatformGetBalanceResult, PlatformGetRewardUTXOsResult } from '../../src/schemas/platform-rewards.js';
import { fixture, fixtureMethods, fixtureNames } from '../fixtures/load.js';

/** Every fixture folder and the schema that parses it. */
const SCHEMAS: Record<string, z.ZodType> = {
  'avm.getHeight': AvmGetHeightResult,
  eth_blockNumber: EthBlockNumberResult,
  'health.health': HealthHealthResult,
  'health.readiness': HealthReadinessResult,
  'health.liveness': HealthLivenessResult,
  'index.getLastAccepted': IndexGetLastAcceptedResult,
  'info.getNetworkID': InfoGetNetworkIDResult,
  'info.getNetworkName': InfoGetNetworkNameResult,
  'info.getNodeID': InfoGetNodeIDResult,
  'info.getNodeVersion': InfoGetNodeVersionResult,
  'info.isBootstrapped': InfoIsBootstrappedResult,
  'info.peers': InfoPeersResult,
  'info.upgrades': InfoUpgradesResult,
  'info.acps': InfoAcpsResult,
  'platform.getValidatorFeeState': PlatformGetValidatorFeeStateResult,
  'info.uptime': InfoUptimeResult,
  'platform.getCurrentValidators': PlatformGetCurrentValidatorsResult,
  'platform.getHeight': PlatformGetHeightResult,
  'platform.getTimestamp': PlatformGetTimestampResult,
  'platform.getRewardUTXOs': PlatformGetRewardUTXOsResult,
  'platform.getBalance': PlatformGetBalanceResult,
  'platform.getCurrentSupply': PlatformGetCurrentSupplyResult,
  'platform.getTotalStake': PlatformGetTotalStakeResult,
  'platform.getMinStake': PlatformGetMinStakeResult,
  'platform.getFeeState': PlatformGetFeeStateResult,
  'info.getNodeIP': InfoGetNodeIPResult,
  'info.getVMs': InfoGetVMsResult,
  'platform.getBlockchains': PlatformGetBlockchainsResult,
  'platform.getBlockchainStatus': PlatformGetBlockchainStatusResult,
  'admin.getLoggerLevel': AdminGetLoggerLevelResult,
};

describe('fixtures', () => {
  it('default: every fixture folder has a schema', () => {
    expect(fixtureMethods().filter((m) => !(m in SCHEMAS))).toEqual([]);
  });

  for (const method of fixtureMethods()) {
    for (const name of fixtureNames(method)) {
      it(`default: ${method}/${name} is accepted`, () => {
        const f = fixture(method, name);
        expect(typeof f.source).toBe('string');
        expect(f.source.length).toBeGreaterThan(0);
        const schema = SCHEMAS[method];
        expect(schema).toBeDefined();
        const parsed = schema!.safeParse(f.result);
        expect(parsed.error?.issues ?? []).toEqual([]);
      });
    }
  }
});
