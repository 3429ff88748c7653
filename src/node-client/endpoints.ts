/** API paths (avalanchego, docs/avalanchego-wire.md §1). */
export const ENDPOINTS = {
  info: '/ext/info',
  health: '/ext/health',
  healthReadiness: '/ext/health/readiness',
  healthLiveness: '/ext/health/liveness',
  platform: '/ext/bc/P',
  /** Admin API: off unless --api-admin-enabled=true (then 404). */
  admin: '/ext/admin',
  xchain: '/ext/bc/X',
  cchainRpc: '/ext/bc/C/rpc',
  index: (chain: string, kind: string) => `/ext/index/${chain}/${kind}`,
} as const;
