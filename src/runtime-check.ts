/**
 * The Node.js version the exporter needs (package.json engines: >= 20.18; undici 7 needs it). Checked
 * before the exporter's modules load, so that an older Node.js (Debian 12's nodejs package is 18) gets
 * a sentence instead of a stack trace from deep inside a dependency.
 */
export const MIN_NODE = [20, 18] as const;

export function nodeVersionProblem(version: string): string | undefined {
  const m = /^v?(\d+)\.(\d+)/.exec(version);
  if (!m) return undefined;
  const [major, minor] = [Number(m[1]), Number(m[2])];
  if (major > MIN_NODE[0] || (major === MIN_NODE[0] && minor >= MIN_NODE[1])) return undefined;
  return (
    `avalanche-exporter needs Node.js >= ${MIN_NODE.join('.')}, this is ${version.replace(/^v?/, 'v')}. ` +
    `Debian 12 and Ubuntu 22.04 ship an older nodejs package: install Node.js 20 or 22 from NodeSource ` +
    `(https://github.com/nodesource/distributions) or the official tarball (https://nodejs.org/en/download), ` +
    `see docs/deployment.md, "Docker and systemd".`
  );
}
