// Runs the simulated node in its own process, so that the exporter's CPU time, heap and RSS
// measured by the benchmark are the exporter's alone. Controlled over IPC (see lib.js):
//   { op: 'advance', ms }            moves the simulator's clock forward (peer, validator and version churn)
//   { op: 'scenario', name, node? }  switches a scenario (health checks are recomputed at once)
//   { op: 'bytes' }                  bytes that went through the counting proxy so far
//   { op: 'close' }
// The node API is also reachable through a counting TCP proxy (proxyUrl), used to measure the
// bytes the exporter puts on the wire.
import net from 'node:net';
import { startSimNode } from '@avalanche-exporter/simulated-node';

const opts = JSON.parse(process.argv[2] ?? '{}');
let offset = 0;
const now = () => Date.now() + offset;
const sim = await startSimNode({ ...opts, now, host: '127.0.0.1' });

const bytes = { toNode: 0, fromNode: 0, connections: 0 };
const simPort = Number(new URL(sim.url).port);
const sockets = new Set();
const proxy = net.createServer((client) => {
  bytes.connections++;
  const upstream = net.connect(simPort, '127.0.0.1');
  sockets.add(client);
  sockets.add(upstream);
  client.on('data', (d) => (bytes.toNode += d.length));
  upstream.on('data', (d) => (bytes.fromNode += d.length));
  client.pipe(upstream);
  upstream.pipe(client);
  const end = () => {
    client.destroy();
    upstream.destroy();
    sockets.delete(client);
    sockets.delete(upstream);
  };
  client.on('error', end);
  upstream.on('error', end);
  client.on('close', end);
  upstream.on('close', end);
});
await new Promise((resolve) => proxy.listen(0, '127.0.0.1', resolve));
const proxyUrl = `http://127.0.0.1:${proxy.address().port}`;

process.on('message', async (msg) => {
  const reply = (v) => process.send({ id: msg.id, ...v });
  try {
    switch (msg.op) {
      case 'advance':
        offset += msg.ms;
        return reply({ ok: true, offset });
      case 'scenario':
        await sim.setScenario(msg.name, msg.node);
        return reply({ ok: true });
      case 'bytes':
        return reply({ ok: true, bytes: { ...bytes } });
      case 'close':
        await sim.close();
        for (const s of sockets) s.destroy();
        proxy.close();
        reply({ ok: true });
        process.disconnect();
        return;
      default:
        return reply({ ok: false, error: `unknown op ${msg.op}` });
    }
  } catch (e) {
    reply({ ok: false, error: String(e) });
  }
});
process.on('disconnect', () => process.exit(0));
process.send({ ready: true, url: sim.url, controlUrl: sim.controlUrl, proxyUrl, nodeIds: Array.from({ length: opts.nodes ?? 1 }, (_, i) => sim.nodeId(i)) });
