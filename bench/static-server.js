// The floor of the paced /probe row (bench/fleet-process.js): an HTTP server in its own process that
// answers every GET with the same ready bytes and does nothing else. Probed in the same rounds as the
// exporter, on the same loaded machine, it shows how much of a probe's time the machine itself takes
// (scheduling on a busy CPU, loopback, the client). Receives { size } over IPC, answers { port }.
import http from 'node:http';

process.on('message', (msg) => {
  const body = Buffer.alloc(msg.size, 'x');
  const server = http.createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4; charset=utf-8', 'content-length': body.length });
    res.end(body);
  });
  server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
});
process.on('disconnect', () => process.exit(0));
