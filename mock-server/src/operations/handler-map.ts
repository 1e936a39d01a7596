import type { OperationId } from '@cardrail/spec/operations';
import type { ApiKeyRecord } from '../core/directory.js';
import type { Tenant } from '../core/tenant.js';
import type { Variant } from '../core/variant.js';
import type { OperationIdOf, WireBody, WireParams, WireQuery, WireResponse } from './wire.js';
import type { OperationSpec } from '../spec/operations.js';
import type { ApiRequest } from './api-request.js';
import type { ServerServices } from './services.js';

/** The variants that have an operation with this operationId. */
type VariantsOf<Id extends OperationId> = { [V in Variant]: Id extends OperationIdOf<V> ? V : never }[Variant];

/**
 * Everything an operation handler gets for one validated request of the variant `V`: the path parameters, query
 * and body as that variant's spec types them (query and path values coerced, schema defaults filled in).
 */
interface VariantContext<V extends Variant, Id extends OperationIdOf<V>> {
  variant: V;
  operation: OperationSpec;
  tenant: Tenant;
  apiKey: ApiKeyRecord;
  params: WireParams<V, Id>;
  query: WireQuery<V, Id>;
  body: WireBody<V, Id>;
  request: ApiRequest;
  services: ServerServices;
}

/** The context of an operationId: a union over the variants that have it, told apart by `variant`. */
export type OperationContext<Id extends OperationId> = {
  [V in VariantsOf<Id>]: VariantContext<V, Id & OperationIdOf<V>>;
}[VariantsOf<Id>];

/** What a handler answers: the documented success body of its operation, optionally with a status and headers. */
export interface OperationResult<Id extends OperationId> {
  /** Default: the spec's first 2xx status of the operation. */
  status?: number;
  /** The response body, in the wire shape the spec gives the operation for the request's variant. */
  body: { [V in VariantsOf<Id>]: WireResponse<V, Id & OperationIdOf<V>> }[VariantsOf<Id>];
  /** Extra response headers. */
  headers?: Record<string, string>;
}

/**
 * Answers one spec operation in the wire shapes of the spec, for either variant that has it (`ctx.variant` tells
 * which). Throw HttpError (from the package root) for a 4xx answer.
 */
export type OperationHandler<Id extends OperationId> = (
  ctx: OperationContext<Id>,
) => OperationResult<Id> | Promise<OperationResult<Id>>;

/**
 * Handlers by operationId that replace the mock's own for those operations (`extensions`, `handlers` options): a
 * misspelt operationId, a field the spec does not have or a body the spec does not document is a compile error.
 */
export type HandlerMap = { readonly [Id in OperationId]?: OperationHandler<Id> };
