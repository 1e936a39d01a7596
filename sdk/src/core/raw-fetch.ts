import type { FetchLike } from './client-options.js';
import type { ClientLogger } from './logger.js';
import { callHeaders } from './request-headers.js';
import { sendWithRetries, type AttemptPolicy } from './retry-loop.js';

/** What the `raw` client's requests share with the resource methods' calls. */
export interface RawTransport {
  readonly fetch: () => FetchLike;
  readonly logger: ClientLogger;
  readonly policy: AttemptPolicy;
}

const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/**
 * The `fetch` of the openapi-fetch client (`raw`), through the same retries, timeout and logging as the resource
 * methods. Its Request's body can be read once, so it is kept to be sent again; the answer is read within the
 * attempt's timeout, then handed back as a Response for openapi-fetch to parse. (Retries are not openapi-fetch
 * middleware, which does not run again for a request sent a second time.)
 */
export function rawFetch(transport: RawTransport): FetchLike {
  return async (request) => {
    const { method, url, redirect, signal } = request;
    const body = request.body === null ? undefined : await request.arrayBuffer();
    const headers = callHeaders(Object.fromEntries(request.headers), method, { hasBody: false });
    const call = { method, url, headers, policy: transport.policy, signal, logger: transport.logger };
    const { response, body: bytes } = await sendWithRetries(call, async (attemptSignal) => {
      const answer = await transport.fetch()(new Request(url, { method, headers, body, redirect, signal: attemptSignal }));
      return { response: answer, body: NULL_BODY_STATUSES.has(answer.status) ? null : await answer.arrayBuffer() };
    });
    return new Response(bytes, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}
