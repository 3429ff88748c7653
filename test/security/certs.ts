import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A CA, server certificates (for 127.0.0.1/localhost) and a client certificate made with openssl at test time. */
export interface TestPki {
  dir: string;
  caCert: string;
  serverCert: string;
  serverKey: string;
  clientCert: string;
  clientKey: string;
  /** Issues a new server certificate (new serial) and replaces serverCert/serverKey atomically; returns its serial. */
  renewServer(): string;
  /** A client certificate signed by an unrelated CA. */
  foreignClient: { cert: string; key: string };
  read(path: string): Buffer;
  serial(certPath: string): string;
}

const openssl = (args: string[], cwd: string) => execFileSync('openssl', args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] }).toString();

function makeCa(dir: string, name: string): void {
  openssl(['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', `${name}.key`, '-out', `${name}.crt`, '-days', '2', '-subj', `/CN=${name}`,
    '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign'], dir);
}

function issue(dir: string, ca: string, name: string, cn: string, ext: string): void {
  openssl(['req', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', `/CN=${cn}`], dir);
  writeFileSync(join(dir, `${name}.ext`), ext);
  openssl(['x509', '-req', '-in', `${name}.csr`, '-CA', `${ca}.crt`, '-CAkey', `${ca}.key`, '-CAcreateserial', '-out', `${name}.crt`, '-days', '2', '-extfile', `${name}.ext`], dir);
}

const SERVER_EXT = 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\nkeyUsage=critical,digitalSignature\n';
const CLIENT_EXT = 'extendedKeyUsage=clientAuth\nkeyUsage=critical,digitalSignature\n';

export function makePki(): TestPki {
  const dir = mkdtempSync(join(tmpdir(), 'avax-exporter-pki-'));
  makeCa(dir, 'ca');
  makeCa(dir, 'other-ca');
  issue(dir, 'ca', 'server', 'localhost', SERVER_EXT);
  issue(dir, 'ca', 'client', 'prometheus', CLIENT_EXT);
  issue(dir, 'other-ca', 'foreign', 'intruder', CLIENT_EXT);
  const serial = (p: string) => openssl(['x509', '-in', p, '-noout', '-serial'], dir).trim().replace(/^serial=/, '').toUpperCase();
  return {
    dir,
    caCert: join(dir, 'ca.crt'),
    serverCert: join(dir, 'server.crt'),
    serverKey: join(dir, 'server.key'),
    clientCert: join(dir, 'client.crt'),
    clientKey: join(dir, 'client.key'),
    foreignClient: { cert: join(dir, 'foreign.crt'), key: join(dir, 'foreign.key') },
    renewServer() {
      issue(dir, 'ca', 'renewed', 'localhost', SERVER_EXT);
      renameSync(join(dir, 'renewed.key'), join(dir, 'server.key'));
      renameSync(join(dir, 'renewed.crt'), join(dir, 'server.crt'));
      return serial(join(dir, 'server.crt'));
    },
    read: (p) => readFileSync(p),
    serial,
  };
}
