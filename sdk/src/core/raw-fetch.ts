import type { FetchLike } from './client-options.js';
import { generateIdempotencyKey, needsIdempotencyKey } from './idempotency-key.js';
import type { ClientLogger } from './logger.js';
import { sendWithRetries, type AttemptPolicy } from './retry-loop.js';

/** What the `raw` client's requests share with the resource methods' calls. */
export interface RawTransport {
  readonly fetch: () => FetchLike;
  readonly logger: ClientLogger;
  readonly policy: AttemptPolicy;
}

const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/**
 * The `fetch` of the openapi-fetch client (`raw`): its Request goes through the same retries, timeout and logging as
 * a resource call. openapi-fetch hands over a Request whose body can be read once, so the body is kept to be sent
 * again on a retry, and the answer is read within the attempt's timeout, then handed back as a Response for
 * openapi-fetch to parse. (Retries live here, not in openapi-fetch middleware, which does not run again for a
 * request sent a second time.)
 */
export function rawFetch(transport: RawTransport): FetchLike {
  return async (request) => {
    const body = request.body === null ? undefined : await request.arrayBuffer();
    const headers = new Headers(request.headers);
    if (needsIdempotencyKey(request.method) && !headers.has('Idempotency-Key')) {
      headers.set('Idempotency-Key', generateIdempotencyKey());
    }
    const { method, url, redirect } = request;
    const call = { method, url, headers, policy: transport.policy, signal: request.signal, logger: transport.logger };
    const { response, body: bytes } = await sendWithRetries(call, async (signal) => {
      const answer = await transport.fetch()(new Request(url, { method, headers, body, redirect, signal }));
      return { response: answer, body: NULL_BODY_STATUSES.has(answer.status) ? null : await answer.arrayBuffer() };
    });
    return new Response(bytes, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}
