import { isPromise } from '../core/is-promise.js';
import { stateNotSaved } from '../core/errors.js';
import type { AnswerCommits } from '../core/state/durable-state.js';
import type { IdentifiedDispatch } from './app.js';
import type { Answer } from './request-context.js';
import { jsonResponse, toWire, type WireResponse } from './response.js';

/**
 * With a durable store (`--state`): every change a request made is with the store before its answer leaves (committed
 * with the other requests of its batch: group commit), and an answer whose changes the store refused becomes 503
 * `state_not_saved` (the same Request-Id; nothing of it was kept).
 */
export function commitBeforeAnswer(answer: IdentifiedDispatch, store: AnswerCommits): IdentifiedDispatch {
  const committed = (wire: WireResponse, method: string, refusalsBefore: number, requestId: string): Answer => {
    const refused = store.commitAnswer(method, refusalsBefore);
    if (isPromise(refused)) return refused.then((reason) => (reason === undefined ? wire : notSaved(reason, requestId)));
    return refused === undefined ? wire : notSaved(refused, requestId);
  };
  return (request, requestId) => {
    const refusals = store.refusals;
    const result = answer(request, requestId);
    if (isPromise(result)) {
      return result.then(
        (wire) => committed(wire, request.method, refusals, requestId),
        async (error: unknown) => {
          // A fault that drops the connection after the commit (`afterCommit`) still keeps what the request changed.
          await store.commitAnswer(request.method, refusals);
          throw error;
        },
      );
    }
    return committed(result, request.method, refusals, requestId);
  };
}

/** The answer in place of one whose changes could not be saved: 503 in the error format, the request's Request-Id. */
function notSaved(reason: string, requestId: string): WireResponse {
  const error = stateNotSaved(reason);
  return toWire(jsonResponse(error.status, error.toBody(), error.headers), requestId);
}
