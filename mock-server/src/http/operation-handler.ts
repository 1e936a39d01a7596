import type { ApiRequest } from './api-request.js';
import type { ApiKeyRecord, Directory } from '../core/directory.js';
import type { Tenant } from '../core/tenant.js';
import type { Variant } from '../core/variant.js';
import type { OperationSpec } from '../spec/operations.js';
import type { EventRenderer, WebhookDispatcher } from '../webhooks/dispatcher.js';

/** Server-wide services a handler may use beyond its own tenant. */
export interface ServerServices {
  directory: Directory;
  webhooks: WebhookDispatcher;
  renderEvent: EventRenderer;
}

/**
 * Everything a handler gets for one validated request. `params`, `query` and `body` already passed the spec's
 * validation (query and path values coerced to their types, schema defaults filled in).
 */
export interface OperationContext {
  operation: OperationSpec;
  variant: Variant;
  tenant: Tenant;
  apiKey: ApiKeyRecord;
  params: Record<string, string>;
  query: Record<string, unknown>;
  // The body's type is the operation's request schema; handlers narrow it with the generated types.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  request: ApiRequest;
  services: ServerServices;
}

/** What a handler answers: a JSON body and optionally a status (default: the spec's first 2xx) and headers. */
export interface OperationResult {
  status?: number;
  body: unknown;
  headers?: Record<string, string>;
}

/**
 * Handles one spec operation (by operationId) for both variants; `ctx.variant` tells which shape to answer.
 * Throw ApiError (see errors.ts) for 400/404 answers.
 */
export type OperationHandler = (ctx: OperationContext) => OperationResult | Promise<OperationResult>;

/** Handlers keyed by operationId. */
export type HandlerMap = Readonly<Record<string, OperationHandler>>;
