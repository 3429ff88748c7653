import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import bcrypt from 'bcryptjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryLogger } from '../helpers/log.js';
import { CLI, ensureBuilt, freePort, startCli, waitFor } from '../helpers/proc.js';
import { makePki, type TestPki } from './certs.js';
import { httpsGet, startServer, type Running } from './server-helpers.js';

let pki: TestPki;
let n = 0;
/** Writes a web config YAML into the PKI dir (relative file names resolve against it). */
function webConfig(yaml: string): string {
  const p = join(pki.dir, `web-${++n}.yml`);
  writeFileSync(p, yaml);
  return p;
}
const TLS = 'tls_server_config:\n  cert_file: server.crt\n  key_file: server.key\n';
const basic = (user: string, pass: string) => ({ authorization: `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}` });

beforeAll(() => {
  pki = makePki();
});

describe('TLS from --web.config.file', () => {
  let srv: Running;
  afterAll(() => srv?.close());

  it('behavior: serves /metrics over TLS with the configured certificate; plain HTTP is refused', async () => {
    srv = await startServer({ webConfigFile: webConfig(TLS) });
    const r = await httpsGet(srv.port, '/metrics', { ca: pki.read(pki.caCert) });
    expect(r.status).toBe(200);
    expect(r.body).toContain('avax_up');
    expect(r.peer.serialNumber.toUpperCase()).toBe(pki.serial(pki.serverCert));
    // A client that does not trust the CA fails the handshake.
    await expect(httpsGet(srv.port, '/metrics')).rejects.toThrow(/self.signed|unable to verify|certificate/i);
    // Plain HTTP to the TLS port gets no metrics.
    const plain = await fetch(`http://127.0.0.1:${srv.port}/metrics`).then((x) => x.text(), (e: Error) => `error ${e.message}`);
    expect(plain).not.toContain('avax_up');
  });

  it('behavior: a renewed certificate is served on the next connection without a restart', async () => {
    const s = await startServer({ webConfigFile: webConfig(TLS) });
    try {
      const before = await httpsGet(s.port, '/metrics', { ca: pki.read(pki.caCert) });
      const renewed = pki.renewServer();
      expect(renewed).not.toBe(before.peer.serialNumber.toUpperCase());
      const after = await httpsGet(s.port, '/metrics', { ca: pki.read(pki.caCert) });
      expect(after.status).toBe(200);
      expect(after.peer.serialNumber.toUpperCase()).toBe(renewed);
    } finally {
      await s.close();
    }
  });

  it('behavior: min_version TLS13 refuses a TLS 1.2-only client; TLS12 (default) accepts it', async () => {
    const s13 = await startServer({ webConfigFile: webConfig(`${TLS}  min_version: TLS13\n`) });
    const s12 = await startServer({ webConfigFile: webConfig(TLS) });
    try {
      const ca = pki.read(pki.caCert);
      await expect(httpsGet(s13.port, '/metrics', { ca, maxVersion: 'TLSv1.2' })).rejects.toThrow(/version|alert|handshake|protocol/i);
      const ok13 = await httpsGet(s13.port, '/metrics', { ca });
      expect(ok13.protocol).toBe('TLSv1.3');
      const ok12 = await httpsGet(s12.port, '/metrics', { ca, maxVersion: 'TLSv1.2' });
      expect(ok12.status).toBe(200);
      expect(ok12.protocol).toBe('TLSv1.2');
    } finally {
      await Promise.all([s13.close(), s12.close()]);
    }
  });
});

describe('client certificates (mTLS)', () => {
  const client = () => ({ ca: pki.read(pki.caCert), cert: pki.read(pki.clientCert), key: pki.read(pki.clientKey) });
  const foreign = () => ({ ca: pki.read(pki.caCert), cert: pki.read(pki.foreignClient.cert), key: pki.read(pki.foreignClient.key) });
  const noCert = () => ({ ca: pki.read(pki.caCert) });

  it('behavior: RequireAndVerifyClientCert rejects no certificate and a foreign one, accepts one signed by client_ca_file', async () => {
    const s = await startServer({ webConfigFile: webConfig(`${TLS}  client_ca_file: ca.crt\n  client_auth_type: RequireAndVerifyClientCert\n`) });
    try {
      await expect(httpsGet(s.port, '/metrics', noCert())).rejects.toThrow();
      await expect(httpsGet(s.port, '/metrics', foreign())).rejects.toThrow();
      const ok = await httpsGet(s.port, '/metrics', client());
      expect(ok.status).toBe(200);
      expect(ok.body).toContain('avax_up');
    } finally {
      await s.close();
    }
  });

  it('behavior: client_ca_file alone means RequireAndVerifyClientCert (exporter-toolkit default)', async () => {
    const s = await startServer({ webConfigFile: webConfig(`${TLS}  client_ca_file: ca.crt\n`) });
    try {
      await expect(httpsGet(s.port, '/metrics', noCert())).rejects.toThrow();
      expect((await httpsGet(s.port, '/metrics', client())).status).toBe(200);
    } finally {
      await s.close();
    }
  });

  it('behavior: VerifyClientCertIfGiven accepts no certificate, rejects a foreign one; RequireAnyClientCert needs one', async () => {
    const ifGiven = await startServer({ webConfigFile: webConfig(`${TLS}  client_ca_file: ca.crt\n  client_auth_type: VerifyClientCertIfGiven\n`) });
    const any = await startServer({ webConfigFile: webConfig(`${TLS}  client_auth_type: RequireAnyClientCert\n`) });
    try {
      expect((await httpsGet(ifGiven.port, '/metrics', noCert())).status).toBe(200);
      expect((await httpsGet(ifGiven.port, '/metrics', client())).status).toBe(200);
      await expect(httpsGet(ifGiven.port, '/metrics', foreign())).rejects.toThrow();
      await expect(httpsGet(any.port, '/metrics', noCert())).rejects.toThrow();
      expect((await httpsGet(any.port, '/metrics', foreign())).status).toBe(200);
    } finally {
      await Promise.all([ifGiven.close(), any.close()]);
    }
  });
});

describe('basic auth and response headers', () => {
  let srv: Running;
  let file: string;
  const ca = () => pki.read(pki.caCert);
  beforeAll(async () => {
    const hash = bcrypt.hashSync('s3cret-scraper-pass', 8);
    file = webConfig(`${TLS}basic_auth_users:\n  prometheus: '${hash}'\nhttp_server_config:\n  headers:\n    Strict-Transport-Security: max-age=31536000\n    X-Content-Type-Options: nosniff\n`);
    srv = await startServer({ webConfigFile: file });
  });
  afterAll(() => srv?.close());

  it('error: no credentials → 401 with WWW-Authenticate; wrong password or user → 401', async () => {
    const none = await httpsGet(srv.port, '/metrics', { ca: ca() });
    expect(none.status).toBe(401);
    expect(none.headers['www-authenticate']).toMatch(/^Basic realm="avalanche-exporter"/);
    expect(none.body).not.toContain('avax_up');
    expect((await httpsGet(srv.port, '/metrics', { ca: ca(), headers: basic('prometheus', 'wrong') })).status).toBe(401);
    expect((await httpsGet(srv.port, '/metrics', { ca: ca(), headers: basic('someone', 's3cret-scraper-pass') })).status).toBe(401);
    expect((await httpsGet(srv.port, '/metrics', { ca: ca(), headers: { authorization: 'Bearer s3cret-scraper-pass' } })).status).toBe(401);
    // Every path is protected except /healthz: the landing page, /probe and unknown paths too.
    for (const p of ['/', '/probe?target=a', '/nope']) expect((await httpsGet(srv.port, p, { ca: ca() })).status).toBe(401);
  });

  it('behavior: right credentials → 200 (every path); /healthz needs none', async () => {
    const ok = await httpsGet(srv.port, '/metrics', { ca: ca(), headers: basic('prometheus', 's3cret-scraper-pass') });
    expect(ok.status).toBe(200);
    expect(ok.body).toContain('avax_up');
    expect((await httpsGet(srv.port, '/probe?target=a', { ca: ca(), headers: basic('prometheus', 's3cret-scraper-pass') })).status).toBe(200);
    expect((await httpsGet(srv.port, '/', { ca: ca(), headers: basic('prometheus', 's3cret-scraper-pass') })).status).toBe(200);
    expect((await httpsGet(srv.port, '/healthz', { ca: ca() })).status).toBe(200);
  });

  it('behavior: http_server_config.headers appear on every answer (200, 401, 404)', async () => {
    const auth = basic('prometheus', 's3cret-scraper-pass');
    for (const r of [
      await httpsGet(srv.port, '/metrics', { ca: ca(), headers: auth }),
      await httpsGet(srv.port, '/metrics', { ca: ca() }),
      await httpsGet(srv.port, '/nope', { ca: ca(), headers: auth }),
    ]) {
      expect(r.headers['strict-transport-security']).toBe('max-age=31536000');
      expect(r.headers['x-content-type-options']).toBe('nosniff');
    }
  });

  it('behavior: a changed basic_auth_users takes effect without a restart', async () => {
    const s = await startServer({ webConfigFile: file });
    try {
      expect((await httpsGet(s.port, '/metrics', { ca: ca(), headers: basic('prometheus', 's3cret-scraper-pass') })).status).toBe(200);
      writeFileSync(file, `${TLS}basic_auth_users:\n  grafana: '${bcrypt.hashSync('other-pass', 8)}'\n`);
      expect((await httpsGet(s.port, '/metrics', { ca: ca(), headers: basic('prometheus', 's3cret-scraper-pass') })).status).toBe(401);
      expect((await httpsGet(s.port, '/metrics', { ca: ca(), headers: basic('grafana', 'other-pass') })).status).toBe(200);
    } finally {
      await s.close();
    }
  });

  it('behavior: a web config that became invalid is logged and the previous one stays in force', async () => {
    const f = webConfig(TLS);
    const log = memoryLogger('debug');
    const s = await startServer({ webConfigFile: f, logger: log.logger });
    try {
      writeFileSync(f, `${TLS}  bogus: 1\n`);
      expect((await httpsGet(s.port, '/metrics', { ca: ca() })).status).toBe(200);
      expect(log.raw()).toContain('web_config_reload_failed');
      expect(log.raw()).toContain('bogus');
    } finally {
      await s.close();
    }
  });
});

describe('--web.config.file through the CLI', () => {
  beforeAll(() => ensureBuilt());
  const run = (args: string[]) => spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 15_000 });

  it('error: an invalid web config exits 2 naming the file and the key', () => {
    const cases: [string, RegExp][] = [
      [`${TLS}  cert_fil: x\n`, /tls_server_config\.cert_fil: unknown key/],
      [`${TLS}  client_auth_type: Sometimes\n`, /tls_server_config\.client_auth_type: expected one of NoClientCert/],
      [`${TLS}  min_version: TLS11\n`, /tls_server_config\.min_version: expected TLS12 or TLS13/],
      [`${TLS}  client_auth_type: RequireAndVerifyClientCert\n`, /tls_server_config\.client_ca_file: required with client_auth_type RequireAndVerifyClientCert/],
      ['tls_server_config:\n  cert_file: missing.crt\n  key_file: server.key\n', /tls_server_config\.cert_file: cannot read missing\.crt \(ENOENT\)/],
      ['tls_server_config:\n  cert_file: ca.crt\n  key_file: server.key\n', /tls_server_config: cannot use cert_file\/key_file/],
      ['basic_auth_users:\n  prometheus: plaintext-password\n', /basic_auth_users\.prometheus: expected a bcrypt hash/],
      ['http_server_config:\n  http2: false\n', /http_server_config\.http2: is an exporter-toolkit setting that avalanche-exporter does not implement/],
      ['http_server_config:\n  headers:\n    Content-Type: text/html\n', /http_server_config\.headers\.Content-Type: this header is set by the exporter/],
      ['foo: [1\n', /not valid YAML/],
      ['web:\n  x: 1\n', /\(top level\)|web: unknown key/],
    ];
    cases.forEach(([yaml, re], i) => {
      const f = webConfig(yaml);
      // run for every case, check-config for a few (each spawn costs a node start)
      for (const cmd of i % 4 === 0 ? [['check-config'], []] : [[]]) {
        const r = run([...cmd, '--node.url', 'http://127.0.0.1:1', '--web.listen-address', '127.0.0.1:0', '--web.config.file', f]);
        expect(r.status, `${yaml} → ${r.stderr}`).toBe(2);
        expect(r.stderr).toContain(f);
        expect(r.stderr).toMatch(re);
      }
    });
    const missing = run(['--web.config.file', join(pki.dir, 'nope.yml')]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('--web.config.file');
    expect(missing.stderr).toContain('cannot read the file (ENOENT)');
  });

  it('behavior: the exporter serves HTTPS with basic auth when started with --web.config.file (also from the environment)', async () => {
    const f = webConfig(`${TLS}basic_auth_users:\n  prometheus: '${bcrypt.hashSync('pw-for-cli', 8)}'\n`);
    const port = await freePort();
    const proc = startCli(['--node.url', 'http://127.0.0.1:1', '--web.listen-address', `127.0.0.1:${port}`], { AVAX_EXPORTER_WEB_CONFIG_FILE: f });
    try {
      await waitFor(async () => (await httpsGet(port, '/healthz', { ca: pki.read(pki.caCert) })).status === 200, 15_000);
      expect((await httpsGet(port, '/metrics', { ca: pki.read(pki.caCert) })).status).toBe(401);
      const ok = await httpsGet(port, '/metrics', { ca: pki.read(pki.caCert), headers: basic('prometheus', 'pw-for-cli') });
      expect(ok.status).toBe(200);
      expect(ok.body).toContain('avax_exporter_build_info');
      expect(proc.stdout() + proc.stderr()).not.toContain('pw-for-cli');
    } finally {
      expect(await proc.stop()).toBe(0);
    }
  });
});
