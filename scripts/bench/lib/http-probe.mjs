// Single HTTP requests on fresh connections (node:http, no keep-alive), and polling a starting server until it
// answers 2xx. Used for readiness and for the start-up timings.
import http from 'node:http';
import { setTimeout as pause } from 'node:timers/promises';

/** One request; resolves with status, headers and the raw body bytes. Rejects on a connection error or timeout. */
export function requestOnce(url, { method = 'GET', headers = {}, body, timeoutMs = 5_000 } = {}) {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
    const request = http.request(
      url,
      {
        method,
        agent: false,
        headers:
          payload === undefined
            ? headers
            : { 'content-type': 'application/json', ...headers, 'content-length': Buffer.byteLength(payload) },
        timeout: timeoutMs,
      },
      (response) => {
        const chunks = [];
        response.on('data', (chunk) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode, headers: response.headers, body: Buffer.concat(chunks) }),
        );
        response.on('error', reject);
      },
    );
    request.on('timeout', () => request.destroy(new Error(`${method} ${url}: no answer within ${timeoutMs} ms`)));
    request.on('error', reject);
    request.end(payload);
  });
}

export function jsonOf(response) {
  return JSON.parse(response.body.toString('utf8'));
}

/**
 * Polls `url` every `intervalMs` until a 2xx answer and resolves with it. Gives up after `timeoutMs`, or as soon as
 * `gaveUp()` says so (the process being polled has exited).
 */
export async function waitForHttp(url, { headers = {}, intervalMs = 2, timeoutMs = 30_000, gaveUp = () => false } = {}) {
  const deadline = performance.now() + timeoutMs;
  let last = 'no attempt';
  for (;;) {
    if (gaveUp()) throw new Error(`gave up waiting for ${url} (${last})`);
    try {
      const response = await requestOnce(url, { headers, timeoutMs: 2_000 });
      if (response.status >= 200 && response.status < 300) return response;
      last = `HTTP ${response.status}`;
    } catch (error) {
      last = error.code ?? error.message;
    }
    if (performance.now() > deadline) throw new Error(`${url} did not answer 2xx within ${timeoutMs} ms (last: ${last})`);
    await pause(intervalMs);
  }
}
