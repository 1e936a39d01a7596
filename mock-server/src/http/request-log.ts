import { HINT_HEADER } from '../core/errors.js';
import { ConnectionDropped } from '../core/faults.js';
import { isPromise } from '../core/is-promise.js';
import type { Dispatch, IdentifiedDispatch } from './app.js';
import { FAULT_HEADER } from './fault-step.js';
import { targetOf } from './request-url.js';
import type { WireResponse } from './response.js';

/** Where a mock's request ids come from and where its request log goes. */
export interface RequestLogOptions {
  requestId: () => string;
  /** One line per request; none without it. */
  log?: ((line: string) => void) | undefined;
}

/**
 * Outermost of the mock's dispatch: gives each request its Request-Id, which every answer to it carries, whichever
 * step answered (the app, the commit or the organization gate refusing with 503 `state_not_saved`, a stopped mock),
 * and with a log, writes its line once the answer is final: the status sent, the time to it, that Request-Id, the
 * fault that changed it and the hint of a refusal, or `dropped` for a connection a fault dropped.
 */
export function withRequestLog(dispatch: IdentifiedDispatch, options: RequestLogOptions): Dispatch {
  const { log, requestId: newRequestId } = options;
  if (!log) return (request) => dispatch(request, newRequestId());
  return (request) => {
    const started = performance.now();
    const requestId = newRequestId();
    const line = (outcome: string, fault: string | undefined, hint?: string): void => {
      const target = targetOf(request);
      const ms = (performance.now() - started).toFixed(1);
      const query = target.query === '' ? '' : `?${target.query}`;
      const noted = `${fault ? ` fault=${fault}` : ''}${hint === undefined ? '' : ` hint: ${hint}`}`;
      log(`${request.method} ${target.path}${query} ${outcome} ${ms}ms ${requestId}${noted}`);
    };
    const logged = (response: WireResponse): WireResponse => {
      line(String(response.status), response.headers[FAULT_HEADER]?.split(';')[0], response.headers[HINT_HEADER]);
      return response;
    };
    const response = dispatch(request, requestId);
    if (!isPromise(response)) return logged(response);
    return response.then(logged, (error: unknown) => {
      // A fault's dropped connection or held request has no answer; the log says so.
      if (error instanceof ConnectionDropped) line('dropped', error.faultId);
      throw error;
    });
  };
}
