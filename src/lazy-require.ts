import { createRequire } from 'node:module';

/**
 * Loads a CommonJS package the first time it is needed, synchronously. For the packages only some
 * setups use (yaml: a --config.file or --web.config.file; bcryptjs: basic auth): a single node watched
 * with flags does not pay their memory (yaml about 10 MB of RSS, bcryptjs about 4 MB, measured with
 * `node --expose-gc -e "require('yaml')"` against a bare process). Types come from `import type`.
 */
const require = createRequire(import.meta.url);

export function lazyRequire<T>(id: string): () => T {
  let mod: T | undefined;
  return () => (mod ??= require(id) as T);
}
