/**
 * Facts of the Avalanche network itself (not of the transport, nor of one answer's shape), for the
 * collectors and derive alike.
 */

/** The primary network's subnet ID (P-Chain, X-Chain, C-Chain; constants.PrimaryNetworkID in avalanchego). */
export const PRIMARY_NETWORK_ID = '11111111111111111111111111111111LpoYY';
