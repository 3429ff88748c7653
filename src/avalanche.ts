/**
 * Facts of the Avalanche network itself (not of the transport, nor of one answer's shape), for the
 * collectors and derive alike.
 */

/** The primary network's subnet ID (P-Chain, X-Chain, C-Chain; constants.PrimaryNetworkID in avalanchego). */
export const PRIMARY_NETWORK_ID = '11111111111111111111111111111111LpoYY';

/**
 * Every network upgrade this exporter knows, named as info.upgrades names them (`<name>Time`; `fUpgradeTime`
 * of v1.12.x is `fortuna`), in activation order, each with the ACPs it activated: avalanchego
 * utils/constants/acps.go (ActivatedACPs, grouped by upgrade in its comments, up to v1.14.2; v1.15.0's
 * ScheduledACPs and avalanchego RELEASES.md for Helicon) and https://github.com/avalanche-foundation/ACPs. Upgrades before
 * Durango predate ACPs. When an avalanchego release names a new upgrade, add it here with its ACPs: until
 * then, once that upgrade activates, an ACP in none of these is not called open (src/derive/acp-activated.ts,
 * `avax_acp_table_outdated`).
 */
export const NETWORK_UPGRADES: Readonly<Record<string, readonly number[]>> = Object.freeze({
  apricotPhase1: [],
  apricotPhase2: [],
  apricotPhase3: [],
  apricotPhase4: [],
  apricotPhase5: [],
  apricotPhasePre6: [],
  apricotPhase6: [],
  apricotPhasePost6: [],
  banff: [],
  cortina: [],
  durango: [23, 24, 25, 30, 31, 41, 62],
  etna: [77, 103, 118, 125, 131, 151],
  fortuna: [176],
  granite: [181, 204, 226],
  // avalanchego v1.15.0, mainnet 2026-09-22 15:00 UTC: ACP-194 C-Chain async execution (SAE), 236 auto-renewed
  // staking, 267 uptime requirement 90 %, 273 shorter minimum staking duration, 283 dynamic minimum gas price,
  // 285 lower minimum consumption rate.
  helicon: [194, 236, 267, 273, 283, 285],
});
