/**
 * Node URLs may carry credentials: userinfo, API keys in the path (hosted RPC providers) or tokens in
 * the query. Everything shown to a person or written to a log goes through `redactUrl`.
 */
export function redactUrl(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return '<invalid url>';
  }
  const auth = u.username || u.password ? '<redacted>@' : '';
  const path = u.pathname && u.pathname !== '/' ? '/<redacted-path>' : '';
  const query = u.search ? '?<redacted>' : '';
  return `${u.protocol}//${auth}${u.host}${path}${query}`;
}

/** Removes secrets of the given URL and headers from a free text (error messages from libraries). */
export function scrubSecrets(text: string, url: string, headers: Readonly<Record<string, string>> = {}): string {
  const secrets: string[] = [];
  try {
    const u = new URL(url);
    if (u.username) secrets.push(u.username, decodeURIComponent(u.username));
    if (u.password) secrets.push(u.password, decodeURIComponent(u.password));
    if (u.pathname && u.pathname !== '/') secrets.push(...u.pathname.split('/').filter((s) => s.length >= 8));
    for (const v of u.searchParams.values()) if (v.length >= 4) secrets.push(v);
  } catch {
    /* nothing to scrub */
  }
  for (const v of Object.values(headers)) {
    secrets.push(v);
    for (const part of v.split(/\s+/)) if (part.length >= 8) secrets.push(part);
  }
  let out = text;
  for (const s of secrets.filter((s) => s.length >= 4).sort((a, b) => b.length - a.length)) out = out.split(s).join('<redacted>');
  return out;
}
