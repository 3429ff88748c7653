/**
 * undici's keep-alive Pool and its error classes, without the rest of undici. `import 'undici'` loads
 * everything it has (fetch, WebSocket, EventSource, the mock and cache layers, proxy agents): 21 MB of RSS
 * in a process that only ever uses a Pool (measured with Node 20 and undici 7.30: a bare process 41 MB,
 * `require('undici')` 62 MB, these three modules 53 MB). This module loads the Pool, the request API that
 * undici's index attaches to every dispatcher (index.js: `Object.assign(Dispatcher.prototype, api)`) and
 * the error classes. When a future undici moves them, it falls back to the whole package: same classes,
 * only the memory differs. test/node-client/undici-pool.test.ts proves both are the ones undici exports.
 */
import { createRequire } from 'node:module';
import type * as Undici from 'undici';

const require = createRequire(import.meta.url);

function lean(): { Pool: typeof Undici.Pool; errors: typeof Undici.errors; loaded: 'lean' | 'whole package' } {
  try {
    const dispatcher = require('undici/lib/dispatcher/dispatcher.js') as { prototype: object };
    const api = require('undici/lib/api/index.js') as object;
    const Pool = require('undici/lib/dispatcher/pool.js') as typeof Undici.Pool;
    const errors = require('undici/lib/core/errors.js') as typeof Undici.errors;
    if (typeof Pool !== 'function' || typeof errors?.UndiciError !== 'function') throw new Error('unexpected undici layout');
    Object.assign(dispatcher.prototype, api);
    return { Pool, errors, loaded: 'lean' };
  } catch {
    const full = require('undici') as typeof Undici;
    return { Pool: full.Pool, errors: full.errors, loaded: 'whole package' };
  }
}

/** `loaded`: which way it went (the test pins 'lean' for the undici of package-lock.json). */
export const { Pool, errors, loaded } = lean();
