import { internalError, refusalOf } from '../core/errors.js';
import type { StoredResponse } from '../core/idempotency.js';
import type { ApiRequest } from '../operations/api-request.js';
import type { RequestIdentity } from './auth.js';
import type { OperationsByVariant, PreparedOperation } from './prepared-operation.js';
import type { RequestTarget } from './request-url.js';
import { jsonResponse, toWire, type WireResponse } from './response.js';

/**
 * What the mock answers a request with: at once when nothing in it had to wait, else a promise. The transports
 * write an answer they get at once in the same turn (adapters/node-server.ts).
 */
export type Answer = WireResponse | Promise<WireResponse>;

/**
 * One routed request on its way through the pipeline (pipeline.ts), as Hono's Context or msw's resolver info: made by
 * the router (app.ts) with what routing found, then filled by the steps: the caller's identity and the operation of
 * its variant once authenticated (`admit`), the JSON body once read, and the headers every answer to it carries beside
 * the answer's own (rate limits, a replay's mark). A step reads what it needs from it instead of a list of
 * parameters; one class, so that every request meets one object shape.
 */
export class RequestContext {
  /** The path parameters the route matched, decoded. */
  readonly params: Record<string, string>;
  /** The operation each variant has at this path and method: authentication picks the caller's (`admit`). */
  readonly operations: OperationsByVariant;
  /** Headers each answer to this request carries beside its own (RateLimit-*, Idempotent-Replayed), in order. */
  readonly headers: [string, string][] = [];
  /** Who called, once authenticated: see `admit`. */
  identity: RequestIdentity | undefined = undefined;
  /** The operation of the caller's variant at this path and method, once authenticated: see `admit`. */
  operation: PreparedOperation | undefined = undefined;
  /** The JSON body once read; undefined for none (or an empty one). */
  body: unknown = undefined;

  constructor(
    /** The request as the transport handed it over. */
    readonly request: ApiRequest,
    /** The `Request-Id` of every answer to it. */
    readonly requestId: string,
    /** Its path and raw query string. */
    readonly target: RequestTarget,
    routed: Routed,
  ) {
    this.params = routed.params;
    this.operations = routed.operations;
  }

  /** Records who called and the operation they reach: the steps after authentication read both. */
  admit(identity: RequestIdentity, operation: PreparedOperation): AdmittedRequest {
    this.identity = identity;
    this.operation = operation;
    // Both fields were set just above, which is all AdmittedRequest adds.
    return this as AdmittedRequest;
  }

  /** The answer to send for a response: its headers, this request's and its Request-Id. */
  wire(response: StoredResponse): WireResponse {
    return toWire(response, this.requestId, this.headers);
  }

  /**
   * The answer for an error a step threw: an HttpError as its status and error body, the state out of reach
   * (StateUnavailable, wherever it was thrown) as 503 `state_not_saved`, anything else as 500 `internal_error` (logged:
   * a fault of the mock, never of the client).
   */
  fail(error: unknown): WireResponse {
    const refusal = refusalOf(error);
    if (!refusal) console.error('[cardrail-mock] handler failed', error);
    const failure = refusal ?? internalError();
    return this.wire(jsonResponse(failure.status, failure.toBody(), failure.headers));
  }
}

/** What routing found for a request (app.ts): the operations at its path and method, and its path parameters. */
export interface Routed {
  operations: OperationsByVariant;
  /** Decoded. */
  params: Record<string, string>;
}

/** A request past authentication: its caller and operation are known. */
export interface AdmittedRequest extends RequestContext {
  readonly identity: RequestIdentity;
  readonly operation: PreparedOperation;
}
