import type { FetchLike } from './client-options.js';
import { callHeaders } from './request-headers.js';
import { sendWithRetries, type AttemptPolicy, type Transport } from './retry-loop.js';

const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/**
 * The `fetch` of the openapi-fetch client (`raw`), through the same retries, timeout and logging as the resource
 * methods, under the client's policy. Its Request's body can be read once, so it is kept to be sent again; the answer
 * is read within the attempt's timeout, then handed back as a Response for openapi-fetch to parse. (Retries are not
 * openapi-fetch middleware, which does not run again for a request sent a second time.)
 */
export function rawFetch(transport: Transport, policy: AttemptPolicy): FetchLike {
  return async (request) => {
    const { method, url, redirect, signal } = request;
    const headers = callHeaders(Object.fromEntries(request.headers), method, { hasBody: false });
    const body = request.body === null ? undefined : await request.arrayBuffer();
    const call = { method, url, headers, body, redirect, policy, signal };
    const { response, body: bytes } = await sendWithRetries(transport, call, async (answer) =>
      NULL_BODY_STATUSES.has(answer.status) ? null : answer.arrayBuffer(),
    );
    return new Response(bytes, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}
