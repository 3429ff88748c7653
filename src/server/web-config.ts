import { createHash, timingSafeEqual } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { createSecureContext, type SecureContextOptions } from 'node:tls';
import type bcryptModule from 'bcryptjs';
import type { Logger } from 'pino';
import { z } from 'zod';
import { ConfigError } from '../config/errors.js';
import { yaml, yamlErrorText } from '../config/yaml-file.js';
import { lazyRequire } from '../lazy-require.js';
import { didYouMean, schemaKeysAt } from '../config/suggest.js';

/** bcryptjs, loaded with the first basic-auth check (see lazy-require.ts). */
const bcrypt = lazyRequire<typeof bcryptModule>('bcryptjs');

/**
 * `--web.config.file`: the Prometheus exporter-toolkit web configuration (YAML), the subset that
 * avalanche-exporter implements: tls_server_config (cert_file, key_file, client_ca_file,
 * client_auth_type, min_version, max_version), basic_auth_users (user: bcrypt hash) and
 * http_server_config.headers. Relative file names are resolved against the directory of the file.
 */

export const CLIENT_AUTH_TYPES = ['NoClientCert', 'RequestClientCert', 'RequireAnyClientCert', 'VerifyClientCertIfGiven', 'RequireAndVerifyClientCert'] as const;
export type ClientAuthType = (typeof CLIENT_AUTH_TYPES)[number];

const TLS_VERSIONS = { TLS12: 'TLSv1.2', TLS13: 'TLSv1.3' } as const;
type TlsVersionName = keyof typeof TLS_VERSIONS;

const UNSUPPORTED = 'is an exporter-toolkit setting that avalanche-exporter does not implement; remove it';
const unsupported = z.unknown().superRefine((_v, ctx) => ctx.addIssue({ code: 'custom', message: UNSUPPORTED }));

const tlsVersion = z.enum(Object.keys(TLS_VERSIONS) as [TlsVersionName, ...TlsVersionName[]], { message: 'expected TLS12 or TLS13' });

/** Response headers the exporter sets itself; a web config must not replace them. */
const RESERVED_HEADERS = new Set(['content-type', 'content-length', 'content-encoding', 'transfer-encoding', 'connection', 'www-authenticate', 'vary', 'allow', 'retry-after']);

const BCRYPT_RE = /^\$2[abxy]\$\d{2}\$[./A-Za-z0-9]{53}$/;

const webConfigSchema = z
  .strictObject({
    tls_server_config: z
      .strictObject({
        cert_file: z.string().min(1).optional(),
        key_file: z.string().min(1).optional(),
        client_ca_file: z.string().min(1).optional(),
        client_auth_type: z.enum(CLIENT_AUTH_TYPES, { message: `expected one of ${CLIENT_AUTH_TYPES.join(', ')}` }).optional(),
        min_version: tlsVersion.optional(),
        max_version: tlsVersion.optional(),
        cert: unsupported.optional(),
        key: unsupported.optional(),
        cipher_suites: unsupported.optional(),
        curve_preferences: unsupported.optional(),
        prefer_server_cipher_suites: unsupported.optional(),
        client_allowed_sans: unsupported.optional(),
      })
      .nullish(),
    http_server_config: z
      .strictObject({
        headers: z
          .record(z.string(), z.string())
          .superRefine((h, ctx) => {
            for (const [k, v] of Object.entries(h)) {
              if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(k)) ctx.addIssue({ code: 'custom', path: [k], message: 'expected a header name' });
              else if (RESERVED_HEADERS.has(k.toLowerCase())) ctx.addIssue({ code: 'custom', path: [k], message: 'this header is set by the exporter and cannot be configured' });
              else if (/[\r\n\0]/.test(v)) ctx.addIssue({ code: 'custom', path: [k], message: 'header values must not contain line breaks' });
            }
          })
          .nullish(),
        http2: unsupported.optional(),
      })
      .nullish(),
    basic_auth_users: z
      .record(z.string(), z.string({ message: 'expected a bcrypt hash as a string' }))
      .superRefine((users, ctx) => {
        for (const [u, h] of Object.entries(users)) {
          if (u === '' || u.includes(':')) ctx.addIssue({ code: 'custom', path: [u], message: 'user names must be non-empty and must not contain ":"' });
          else if (!BCRYPT_RE.test(h)) ctx.addIssue({ code: 'custom', path: [u], message: 'expected a bcrypt hash ($2a$, $2b$ or $2y$), e.g. from htpasswd -nBC 10 USER' });
        }
      })
      .nullish(),
    rate_limit: unsupported.optional(),
  });

export interface TlsSettings {
  certFile: string;
  keyFile: string;
  clientCaFile?: string;
  clientAuthType: ClientAuthType;
  minVersion: 'TLSv1.2' | 'TLSv1.3';
  maxVersion: 'TLSv1.2' | 'TLSv1.3';
  /** Options for https.createServer / setSecureContext (file contents already read). */
  context: SecureContextOptions;
}

export interface WebConfig {
  file: string;
  tls?: TlsSettings;
  /** user → bcrypt hash; empty: no authentication. */
  users: ReadonlyMap<string, string>;
  headers: Readonly<Record<string, string>>;
  /** Files whose change triggers a re-read (the config file, certificate, key, CA). */
  files: readonly string[];
}

const issuePath = (path: readonly PropertyKey[]) => path.map((p) => (typeof p === 'number' ? `[${p}]` : String(p))).join('.').replace(/\.\[/g, '[');

/**
 * Checks between keys of tls_server_config. They run on the raw document, next to the schema, so that
 * a file with several faults gets all of them in one message (zod skips refinements after an issue).
 */
function crossChecks(doc: Record<string, unknown>): string[] {
  const t = doc['tls_server_config'];
  if (!t || typeof t !== 'object' || Array.isArray(t)) return [];
  const tls = t as Record<string, unknown>;
  const out: string[] = [];
  if (!tls['cert_file']) out.push('tls_server_config.cert_file: required when tls_server_config is present');
  if (!tls['key_file']) out.push('tls_server_config.key_file: required when tls_server_config is present');
  const auth = tls['client_auth_type'];
  if ((auth === 'RequireAndVerifyClientCert' || auth === 'VerifyClientCertIfGiven') && !tls['client_ca_file']) {
    out.push(`tls_server_config.client_ca_file: required with client_auth_type ${auth}`);
  }
  const [min, max] = [tls['min_version'], tls['max_version']];
  if (typeof min === 'string' && typeof max === 'string' && min in TLS_VERSIONS && max in TLS_VERSIONS && min > max) {
    out.push('tls_server_config.min_version: must not be above max_version');
  }
  return out;
}

/** Reads and validates a web config file; every problem is a ConfigError naming the file and key, all of them at once. */
export function loadWebConfig(file: string): WebConfig {
  const where = `--web.config.file ${file}`;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new ConfigError(`${where}: cannot read the file (${(err as NodeJS.ErrnoException).code ?? 'unreadable'})`);
  }
  let doc: unknown;
  try {
    doc = yaml().parse(text);
  } catch (err) {
    throw new ConfigError(`${where}: ${yamlErrorText(err, text)}`);
  }
  if (doc === null || doc === undefined) doc = {};
  if (typeof doc !== 'object' || Array.isArray(doc)) throw new ConfigError(`${where}: expected a mapping at the top level`);
  const problems: string[] = [];
  const parsed = webConfigSchema.safeParse(doc);
  if (!parsed.success) {
    for (const i of parsed.error.issues) {
      const base = issuePath(i.path);
      if (i.code === 'unrecognized_keys') {
        const valid = schemaKeysAt(webConfigSchema, i.path) ?? [];
        for (const k of i.keys) problems.push(`${base ? `${base}.` : ''}${k}: unknown key${didYouMean(k, valid)}`);
      } else {
        problems.push(`${base || '(top level)'}: ${i.message}`);
      }
    }
  }
  problems.push(...crossChecks(doc as Record<string, unknown>));

  // The files named by tls_server_config: each unreadable one is its own problem.
  const dir = dirname(resolve(file));
  const files = [resolve(file)];
  const rawTls = (doc as Record<string, unknown>)['tls_server_config'];
  const tlsDoc = rawTls && typeof rawTls === 'object' && !Array.isArray(rawTls) ? (rawTls as Record<string, unknown>) : undefined;
  const read = (key: string): Buffer | undefined => {
    const p = tlsDoc?.[key];
    if (typeof p !== 'string' || p === '') return undefined;
    const abs = resolve(dir, p);
    files.push(abs);
    try {
      return readFileSync(abs);
    } catch (err) {
      problems.push(`tls_server_config.${key}: cannot read ${p} (${(err as NodeJS.ErrnoException).code ?? 'unreadable'})`);
      return undefined;
    }
  };
  const cert = read('cert_file');
  const key = read('key_file');
  const ca = read('client_ca_file');

  if (problems.length > 0 || !parsed.success) {
    throw new ConfigError(`invalid web configuration (${where}):\n${problems.map((p) => `  ${p}`).join('\n')}`);
  }
  const c = parsed.data;
  let tls: TlsSettings | undefined;
  if (c.tls_server_config) {
    const t = c.tls_server_config;
    const clientAuthType: ClientAuthType = t.client_auth_type ?? (t.client_ca_file ? 'RequireAndVerifyClientCert' : 'NoClientCert');
    const minVersion = TLS_VERSIONS[t.min_version ?? 'TLS12'];
    const maxVersion = TLS_VERSIONS[t.max_version ?? 'TLS13'];
    const context: SecureContextOptions = { cert: cert!, key: key!, minVersion, maxVersion, ...(ca ? { ca } : {}) };
    try {
      createSecureContext(context);
    } catch (err) {
      throw new ConfigError(`invalid web configuration (${where}):\n  tls_server_config: cannot use cert_file/key_file${ca ? '/client_ca_file' : ''}: ${(err as Error).message}`);
    }
    tls = { certFile: resolve(dir, t.cert_file!), keyFile: resolve(dir, t.key_file!), clientCaFile: t.client_ca_file && resolve(dir, t.client_ca_file), clientAuthType, minVersion, maxVersion, context };
  }
  return {
    file,
    tls,
    users: new Map(Object.entries(c.basic_auth_users ?? {})),
    headers: { ...(c.http_server_config?.headers ?? {}) },
    files,
  };
}

/** requestCert / rejectUnauthorized of the TLS server for a client_auth_type. */
export function clientAuthOptions(type: ClientAuthType): { requestCert: boolean; rejectUnauthorized: boolean } {
  switch (type) {
    case 'NoClientCert':
      return { requestCert: false, rejectUnauthorized: false };
    case 'RequireAndVerifyClientCert':
      return { requestCert: true, rejectUnauthorized: true };
    default:
      // RequestClientCert, RequireAnyClientCert, VerifyClientCertIfGiven: checked per connection.
      return { requestCert: true, rejectUnauthorized: false };
  }
}

const sha256 = (s: string) => createHash('sha256').update(s).digest();
/** A valid hash of a random password: verifying unknown users costs as much as known ones. */
const DUMMY_HASH = '$2b$10$zho8vWFkijhVOLkWJGUJsOa8EMClmaHj/EjJ2/DZF9LD5Uh7PE4te';

/**
 * The web configuration in use, re-read when the file or any file it names changes (checked on
 * every new connection and request: a stat of at most four files). A file that became invalid is
 * logged and the previous configuration stays in force.
 */
export class WebConfigWatcher {
  private cfg: WebConfig;
  private signature: string;
  private failedSignature = '';
  /** Successful verifications: sha256(user, password, hash) → true. Bounded. */
  private verified = new Set<string>();
  private listeners: ((cfg: WebConfig) => void)[] = [];

  constructor(
    readonly file: string,
    private readonly logger: Logger,
  ) {
    this.cfg = loadWebConfig(file);
    this.signature = this.sign(this.cfg.files);
  }

  get current(): WebConfig {
    return this.cfg;
  }

  onChange(fn: (cfg: WebConfig) => void): void {
    this.listeners.push(fn);
  }

  private sign(files: readonly string[]): string {
    return files
      .map((f) => {
        try {
          const s = statSync(f, { bigint: true });
          return `${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`;
        } catch {
          return 'missing';
        }
      })
      .join('|');
  }

  /** Re-reads the configuration if a file changed; returns true if a new one is in force. */
  refresh(): boolean {
    const sig = this.sign(this.cfg.files);
    if (sig === this.signature || sig === this.failedSignature) return false;
    let next: WebConfig;
    try {
      next = loadWebConfig(this.file);
      if (!!next.tls !== !!this.cfg.tls) throw new ConfigError('switching TLS on or off needs a restart');
    } catch (err) {
      this.failedSignature = sig;
      this.logger.error({ event: 'web_config_reload_failed', file: this.file, err: (err as Error).message }, 'web configuration not reloaded; keeping the previous one');
      return false;
    }
    this.cfg = next;
    this.signature = this.sign(next.files);
    this.failedSignature = '';
    this.verified.clear();
    for (const fn of this.listeners) fn(next);
    this.logger.info({ event: 'web_config_reloaded', file: this.file, tls: !!next.tls, users: next.users.size }, 'web configuration reloaded');
    return true;
  }

  get authEnabled(): boolean {
    return this.cfg.users.size > 0;
  }

  /** Checks an Authorization header against basic_auth_users. */
  async authorize(header: string | undefined): Promise<boolean> {
    const users = this.cfg.users;
    if (users.size === 0) return true;
    const m = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? '');
    if (!m) return false;
    const decoded = Buffer.from(m[1]!, 'base64').toString('utf8');
    const i = decoded.indexOf(':');
    if (i < 0) return false;
    const user = decoded.slice(0, i);
    const password = decoded.slice(i + 1);
    // Constant-time user lookup: compare against every configured user.
    const userHash = sha256(user);
    let hash: string | undefined;
    for (const [u, h] of users) if (timingSafeEqual(sha256(u), userHash)) hash = h;
    const cacheKey = createHash('sha256').update(user).update('\0').update(password).update('\0').update(hash ?? '').digest('base64');
    if (hash !== undefined && this.verified.has(cacheKey)) return true;
    const ok = await bcrypt().compare(password, hash ?? DUMMY_HASH).catch(() => false);
    if (!ok || hash === undefined) return false;
    if (this.verified.size >= 1024) this.verified.clear();
    this.verified.add(cacheKey);
    return true;
  }
}
