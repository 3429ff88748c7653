// The Admin API of the simulated node (POST /ext/admin): api/admin/service.go, v1.14.2. Disabled by
// default (--api-admin-enabled=false: a plain-text 404); the log-level-debug scenario enables it with
// the C-Chain's logger writing DEBUG (as after admin.setLoggerLevel {loggerName:"C", logLevel:"DEBUG"}).
// Part of the simulated avalanchego node, an independent oracle ON PURPOSE: this package shares no
// code with the exporter (src/) and has its own CB58, JSON-RPC envelope and constants, so
// that a bug in the exporter's decoding cannot hide behind the same bug here. Do not "fix" this
// duplication (test/sim/independence.test.ts fails on any import from outside this package).
import { Args, RpcError, type Service } from './json-rpc-envelope.js';

/**
 * The node's loggers: one per chain alias, `main` and `vm-factory` (every real node recorded, v1.11.7
 * to v1.14.2, has it), sorted (a Go map, encoded sorted).
 */
function loggerLevels(): Record<string, { logLevel: string; displayLevel: string }> {
  return {
    C: { logLevel: 'DEBUG', displayLevel: 'INFO' },
    P: { logLevel: 'INFO', displayLevel: 'INFO' },
    X: { logLevel: 'INFO', displayLevel: 'INFO' },
    main: { logLevel: 'INFO', displayLevel: 'INFO' },
    'vm-factory': { logLevel: 'INFO', displayLevel: 'INFO' },
  };
}

export function adminService(): Service {
  return {
    GetLoggerLevel: (a: Args) => {
      const all = loggerLevels();
      const name = a.str('loggerName');
      if (name === '') return { loggerLevels: all };
      const one = all[name];
      // [inferred] wording of the unknown-logger error.
      if (!one) throw new RpcError(`logger with name ${name} not found`);
      return { loggerLevels: { [name]: one } };
    },
  };
}
