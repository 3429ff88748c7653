// The test's own questions to a real node (not the exporter's client: the tests compare the exporter's
// values with what the node answers, so they ask the node with nothing of the exporter in between).

/** A JSON-RPC call to `path` of a node; the result, or a thrown error naming the method and the node's error. */
export async function rpc(url: string, path: string, method: string, params: unknown = {}, timeoutMs = 5_000): Promise<unknown> {
  const r = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await r.text();
  let j: { result?: unknown; error?: { code: number; message: string } };
  try {
    j = JSON.parse(text) as typeof j;
  } catch {
    throw new Error(`${method}: HTTP ${r.status}, not JSON: ${text.slice(0, 200)}`);
  }
  if (j.error) throw new Error(`${method}: ${j.error.code} ${j.error.message}`);
  return j.result;
}

/** GET a node path as text (health, /ext/metrics). */
export async function getText(url: string, path: string, timeoutMs = 5_000): Promise<{ status: number; text: string }> {
  const r = await fetch(`${url}${path}`, { signal: AbortSignal.timeout(timeoutMs) });
  return { status: r.status, text: await r.text() };
}
