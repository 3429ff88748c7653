/**
 * Credentials never leave the process. Node URLs may carry userinfo, API keys in the path (hosted RPC
 * providers) or tokens in the query, and headers may carry tokens: everything shown to a person or
 * written to a log goes through `redactUrl` (a URL) or a `Redactor` (a free text: error messages of
 * libraries, bodies a server or a proxy echoes back). One implementation for the node client, the
 * runner, the logs and the landing page.
 */

/** The mark that stands where a credential was. */
export const REDACTED = '<redacted>';

/** A URL with its credentials replaced: userinfo, path and query are never shown. */
export function redactUrl(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return '<invalid url>';
  }
  const auth = u.username || u.password ? `${REDACTED}@` : '';
  const path = u.pathname && u.pathname !== '/' ? '/<redacted-path>' : '';
  const query = u.search ? `?${REDACTED}` : '';
  return `${u.protocol}//${auth}${u.host}${path}${query}`;
}

/** Shorter strings are not redacted: they would mangle ordinary text and protect little. */
const MIN_SECRET = 4;
/** Path segments are credentials only when long enough to be keys (`/ext/bc/C/rpc` is not). */
const MIN_PATH_SECRET = 8;

function decode(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
}

/**
 * The credential strings of a node URL and its headers, longest first (so that a secret containing
 * another is cut out whole): userinfo, long path segments, query values (raw and decoded), and header
 * values with the credential alone (`Bearer <token>`, `Basic <base64>`).
 */
export function secretsOf(url: string, headers: Readonly<Record<string, string>> = {}): string[] {
  const found = new Set<string>();
  const add = (s: string | undefined, min = MIN_SECRET) => {
    if (s !== undefined && s.length >= min) found.add(s);
  };
  try {
    const u = new URL(url);
    for (const part of [u.username, u.password]) {
      add(part);
      add(decode(part));
    }
    for (const seg of u.pathname.split('/')) add(seg, MIN_PATH_SECRET);
    for (const part of u.search.slice(1).split('&')) {
      if (!part.includes('=')) continue;
      const raw = part.slice(part.indexOf('=') + 1);
      add(raw);
      add(decode(raw));
    }
  } catch {
    /* not a URL: nothing in it to hide */
  }
  for (const v of Object.values(headers)) {
    add(v);
    const space = v.indexOf(' ');
    if (space > 0) add(v.slice(space + 1).trim());
    for (const part of v.split(/\s+/)) add(part, MIN_PATH_SECRET);
  }
  return [...found].sort((a, b) => b.length - a.length);
}

/** Cuts the credentials of one node URL and its headers out of any text. */
export class Redactor {
  private readonly secrets: readonly string[];
  constructor(url: string, headers: Readonly<Record<string, string>> = {}) {
    this.secrets = secretsOf(url, headers);
  }
  scrub(text: string): string {
    let out = text;
    for (const s of this.secrets) if (out.includes(s)) out = out.split(s).join(REDACTED);
    return out;
  }
}
