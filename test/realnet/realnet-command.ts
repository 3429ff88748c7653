// `npm run realnet`: a real local avalanchego network (v1.15.0, Helicon active, five validators), C-Chain
// transfers every 2 s, and the exporter against it, for a person to look at. Prints the URLs; Ctrl-C (or
// SIGTERM) stops everything, by PID. REALNET_VERSION=v1.13.5 for the older release, REALNET_NODES=N.
import { spawn } from 'node:child_process';
import { mkdtempSync, openSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { findAvalanchego, REALNET_VERSIONS, type RealnetVersion } from './avalanchego-binary.js';
import { startTraffic } from './c-chain-traffic.js';
import { realnetConfig } from './exporter-run.js';
import { startRealNetwork } from './network.js';

const version = (process.env['REALNET_VERSION'] ?? REALNET_VERSIONS[0]) as RealnetVersion;
if (!REALNET_VERSIONS.includes(version)) {
  console.error(`REALNET_VERSION must be one of ${REALNET_VERSIONS.join(', ')}`);
  process.exit(2);
}
const found = findAvalanchego(version);
if (!found.ok) {
  console.error(`npm run realnet: ${found.why}.\n\`bash .ci/run\` builds and caches it here (Go and the Go module proxy); elsewhere set AVALANCHEGO_PATH to an official avalanchego ${version} binary.`);
  process.exit(1);
}
const nodes = Number(process.env['REALNET_NODES'] ?? (version === 'v1.15.0' ? 5 : 3));
const port = Number(process.env['REALNET_EXPORTER_PORT'] ?? 10650);
console.log(`starting ${nodes} avalanchego nodes (${found.versionLine}) on loopback ...`);
const net = await startRealNetwork({
  binary: found.path,
  nodes,
  release: version === 'v1.15.0' ? 'v1.15' : 'v1.13',
  activeUpTo: version === 'v1.15.0' ? 'helicon' : 'fortuna',
  log: (l) => console.log(`  ${l}`),
});
const traffic = startTraffic(() => net.nodes.filter((n) => n.running()).map((n) => n.url));
const dir = mkdtempSync(join(tmpdir(), 'avax-realnet-exporter-'));
const config = join(dir, 'config.yaml');
writeFileSync(config, realnetConfig(net, port, { intervalSeconds: 5, nodeTimeout: '4s' }));
const logFile = join(dir, 'exporter.log');
const fd = openSync(logFile, 'a');
const exporter = spawn(process.execPath, ['--v8-pool-size=1', resolve(process.cwd(), 'dist/cli.js'), '--config.file', config], { stdio: ['ignore', fd, fd] });

console.log(`
The network (${net.networkId}, data in ${net.dir}):
${net.nodes.map((n) => `  ${n.name}  ${n.url}  ${n.nodeId}  pid ${n.pid()}`).join('\n')}
The exporter (pid ${exporter.pid}; configuration ${config}, log ${logFile}):
  http://127.0.0.1:${port}/            landing page
  http://127.0.0.1:${port}/metrics     every target
  http://127.0.0.1:${port}/probe?target=node1
Try: kill -STOP <a node's pid> (then -CONT), or kill <pid>, and watch avax_up and the landing page.
Ctrl-C stops everything.`);

let stopping = false;
async function stopAll(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  console.log(`\n${signal}: stopping the traffic, the exporter and the nodes ...`);
  await traffic.stop();
  if (exporter.exitCode === null) exporter.kill('SIGTERM');
  await net.stop();
  console.log(`done (${traffic.sent.length} C-Chain transfers sent)`);
  process.exit(0);
}
process.on('SIGINT', () => void stopAll('SIGINT'));
process.on('SIGTERM', () => void stopAll('SIGTERM'));
exporter.once('exit', (code) => {
  if (!stopping) {
    console.error(`the exporter exited (${code}); see ${logFile}`);
    void stopAll('exporter exit');
  }
});
