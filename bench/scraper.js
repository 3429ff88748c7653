// Scrape client of bench/run.js, in its own process so that reading multi-megabyte bodies does not
// run on the event loop of the exporter being measured. Receives over IPC
//   { endpoints: [{ name, url, urls?, count, headers? }], maxMs, warmup, everyMs? }
// and answers { results: { [name]: { lat: number[], size, series } } }.
// Endpoints are scraped round-robin, one sequential keep-alive GET at a time, so that every
// endpoint sees the same machine load; each stops at its count, all stop at maxMs. With everyMs, paced:
// one round every everyMs (a GET started late is not made up for), which samples the whole window
// instead of the second or two a back-to-back burst lasts. With `urls`, an endpoint's GETs take them in
// turn (each is GET once more in the warm-up).
import http from 'node:http';

function get(agent, url, headers) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const req = http.get(url, { agent, headers }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const ms = performance.now() - t0;
        if (res.statusCode !== 200) reject(new Error(`${url}: HTTP ${res.statusCode}`));
        else resolve({ ms, buf: Buffer.concat(chunks) });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.setTimeout(30_000, () => req.destroy(new Error(`${url}: no answer within 30 s`)));
  });
}

function countSeries(text) {
  let n = 0;
  for (const line of text.split('\n')) if (line !== '' && line[0] !== '#') n++;
  return n;
}

process.on('message', async (msg) => {
  try {
    const eps = msg.endpoints.map((e) => ({ ...e, agent: new http.Agent({ keepAlive: true, maxSockets: 1 }), lat: [], size: 0, series: 0 }));
    for (const e of eps) {
      for (let i = 0; i < (msg.warmup ?? 10); i++) {
        const { buf } = await get(e.agent, e.url, e.headers);
        if (i === 0) {
          e.size = buf.length;
          e.series = e.headers?.['accept-encoding'] ? NaN : countSeries(buf.toString('utf8'));
        }
      }
      for (const url of e.urls ?? []) await get(e.agent, url, e.headers);
    }
    const start = performance.now();
    const deadline = start + msg.maxMs;
    for (let round = 0; ; round++) {
      const open = eps.filter((e) => e.lat.length < e.count);
      if (open.length === 0 || performance.now() > deadline) break;
      if (msg.everyMs) {
        const wait = start + round * msg.everyMs - performance.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        if (performance.now() > deadline) break;
      }
      for (const e of open) {
        const { ms, buf } = await get(e.agent, e.urls ? e.urls[e.lat.length % e.urls.length] : e.url, e.headers);
        e.lat.push(ms);
        e.size = buf.length;
      }
    }
    for (const e of eps) e.agent.destroy();
    process.send({ results: Object.fromEntries(eps.map((e) => [e.name, { lat: e.lat, size: e.size, series: e.series }])) });
  } catch (err) {
    process.send({ error: String(err?.stack ?? err) });
  }
});
