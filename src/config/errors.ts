/** A configuration problem: the CLI prints `message` and exits with code 2. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}
