import { HttpError } from '../core/errors.js';
import type { IdentifiedDispatch } from './app.js';
import { jsonResponse, toWire, type WireResponse } from './response.js';

/** A mock's dispatch that can be stopped (`MockServer.stop`): from then on it answers every request 503. */
export interface StoppableDispatch {
  readonly dispatch: IdentifiedDispatch;
  /** From now on, every request is answered 503 `service_unavailable`, running nothing; requests already running finish. */
  stop(): void;
}

/**
 * Wraps the mock's dispatch, outermost (nothing of a request runs once stopped: no tenant is read, nothing is committed
 * to a store that may be closed). The answer is the API's 503 `service_unavailable` in its error format, which every
 * operation documents, with a message that says why, so a request sent after `stop()` fails loudly instead of being
 * answered by a mock that no longer delivers webhooks or runs due work.
 */
export function stoppable(dispatch: IdentifiedDispatch): StoppableDispatch {
  let stopped = false;
  return {
    dispatch: (request, requestId) => (stopped ? stoppedAnswer(requestId) : dispatch(request, requestId)),
    stop() {
      stopped = true;
    },
  };
}

/** The answer to a request after `stop()`, with the request's Request-Id. */
function stoppedAnswer(requestId: string): WireResponse {
  const error = new HttpError(
    503,
    'service_unavailable',
    'The mock was stopped (stop(), or its server closing): it answers no more requests.',
    { reason: 'stopped' },
  );
  return toWire(jsonResponse(error.status, error.toBody()), requestId);
}
