/**
 * A GET for the issuer's metadata and keys that cannot hang or fill memory: bounded in time and in bytes, and never
 * following a redirect (a 3xx answer is refused, so the URL fetched is always the one checked).
 */

/** How long a fetch may take and how large its body may be. */
export interface FetchBounds {
  timeoutMs: number;
  maxBytes: number;
}

async function readCapped(response: Response, maxBytes: number, url: string): Promise<Uint8Array<ArrayBuffer>> {
  const declared = Number(response.headers.get('content-length') ?? 0);
  if (declared > maxBytes) {
    await response.body?.cancel();
    throw new Error(`${url} answered ${declared} bytes, more than the ${maxBytes} allowed.`);
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (response.body === null) return new Uint8Array();
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw new Error(`${url} answered more than the ${maxBytes} bytes allowed.`);
    }
    chunks.push(value);
  }
  const body = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    body.set(chunk, at);
    at += chunk.byteLength;
  }
  return body;
}

/**
 * Fetches `url` and returns its answer with the body read in full (at most `maxBytes`); `signal`, or else `timeoutMs`,
 * aborts it. Throws on a network failure, a timeout or a body too large; any status is returned.
 */
export async function fetchBounded(
  url: string,
  bounds: FetchBounds,
  init: { headers?: HeadersInit; signal?: AbortSignal } = {},
): Promise<Response> {
  // A caller's signal (jose's) carries its own timeout, the same bound.
  const signal = init.signal ?? AbortSignal.timeout(bounds.timeoutMs);
  const response = await fetch(url, { method: 'GET', redirect: 'manual', headers: init.headers, signal });
  const body = await readCapped(response, bounds.maxBytes, url);
  // A 204 or 304 cannot be rebuilt with a body, even an empty one.
  const nullBody = response.status === 204 || response.status === 205 || response.status === 304;
  return new Response(nullBody ? null : body, { status: response.status, headers: response.headers });
}

/** The JSON object `url` answers with 200, or undefined when it answers 404; throws saying why otherwise. */
export async function fetchJsonObject(url: string, bounds: FetchBounds): Promise<Record<string, unknown> | undefined> {
  const response = await fetchBounded(url, bounds, { headers: { Accept: 'application/json' } });
  if (response.status === 404) return undefined;
  if (response.status !== 200) throw new Error(`${url} answered HTTP ${response.status}.`);
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    throw new Error(`${url} did not answer JSON.`);
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new Error(`${url} did not answer a JSON object.`);
  return body as Record<string, unknown>;
}
