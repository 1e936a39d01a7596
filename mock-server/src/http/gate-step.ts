import { internalError, refusalOf } from '../core/errors.js';
import { ConnectionDropped } from '../core/faults.js';
import { keyDigest } from '../core/key-digest.js';
import { MAX_KEY_LENGTH, modeOfKey } from '../core/key-syntax.js';
import type { OrgGate } from '../core/state/org-gate.js';
import type { ApiRequest } from '../operations/api-request.js';
import type { IdentifiedDispatch } from './app.js';
import { presentedKey } from './auth.js';
import { requestBodyText } from './body-limit.js';
import { jsonResponse, toWire, type WireResponse } from './response.js';

/**
 * With a state several processes share (PostgreSQL): every request presenting a well-formed key runs under its
 * organization's lock in the database, on a copy brought up to date first, and is answered only once the batch it ran
 * in is committed (docs/standalone-server.md#several-instances-on-one-database). Its body is read before the lock is
 * taken (a slow client never holds an organization), but only once the key looks valid; a request without a usable
 * key touches nothing stored and is answered (401) as without a store. When the database cannot be reached, or refuses
 * the commit, the gate throws StateUnavailable (as it does into a request that waits outside the lock, which the
 * pipeline answers the same way): the answer is 503 `state_not_saved`, with the request's own Request-Id, and nothing
 * of the request was kept.
 */
export function gatedAnswer(answer: IdentifiedDispatch, gate: OrgGate, maxBodyBytes: number): IdentifiedDispatch {
  return (request, requestId) => {
    const key = presentedKey(request)?.key;
    if (key === undefined || key === '' || key.length > MAX_KEY_LENGTH || !modeOfKey(key)) return answer(request, requestId);
    return run(request, requestId, key);
  };

  async function run(request: ApiRequest, requestId: string, key: string): Promise<WireResponse> {
    const ready = await withBody(request, maxBodyBytes);
    try {
      return await gate.runForKey(keyDigest(key), () => answer(ready, requestId));
    } catch (error) {
      if (error instanceof ConnectionDropped) throw error;
      const refusal = refusalOf(error);
      // Anything but the state out of reach is a fault of the mock (the gate's own), never the client's.
      if (!refusal) console.error('[cardrail-mock] the organization gate failed', error);
      const failure = refusal ?? internalError();
      return toWire(jsonResponse(failure.status, failure.toBody(), failure.headers), requestId);
    }
  }
}

/**
 * The request with its body read (up to the limit): the pipeline then finds it at hand. A body over the limit, or cut
 * short, is refused where the pipeline reads it, as without a store.
 */
async function withBody(request: ApiRequest, limit: number): Promise<ApiRequest> {
  if (request.bodyText !== undefined) return request;
  let text: string;
  try {
    text = await requestBodyText(request, limit);
  } catch (error) {
    return viewOf(request, { text: () => Promise.reject(error) });
  }
  return viewOf(request, { bodyText: text, text: () => Promise.resolve(text) });
}

/**
 * The request with its body in hand. Its `signal` is read only when asked for, as the transport's own: on Node, each
 * signal made listens on the connection until it closes, so one made for every request of a keep-alive connection
 * would pile up listeners.
 */
function viewOf(request: ApiRequest, body: Pick<ApiRequest, 'text' | 'bodyText'>): ApiRequest {
  const view = { method: request.method, url: request.url, headers: request.headers, ...body } as ApiRequest;
  return Object.defineProperty(view, 'signal', { get: () => request.signal, enumerable: true });
}
