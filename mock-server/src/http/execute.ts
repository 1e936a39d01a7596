import type { StoredResponse } from '../core/idempotency.js';
import type { RequestIdentity } from './auth.js';
import { ApiError, invalidRequest, notImplemented } from './errors.js';
import type { HandlerMap, OperationContext, ServerServices } from './operation-handler.js';
import type { PreparedOperation } from './prepared-operation.js';
import { jsonResponse } from './response.js';

export interface ExecuteInput {
  identity: RequestIdentity;
  request: Request;
  /** The raw query string, without `?`. */
  query: string;
  params: Record<string, string>;
  body: unknown;
}

/** The query string as an object; a repeated parameter becomes an array (which its schema then refuses). */
function queryObject(search: string): Record<string, unknown> {
  const query: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  if (search === '') return query;
  for (const [name, value] of new URLSearchParams(search)) {
    const previous = query[name];
    query[name] = previous === undefined ? value : Array.isArray(previous) ? [...previous, value] : [previous, value];
  }
  return query;
}

/**
 * Validates the request against the operation's spec, runs its handler and (when asked) checks the answer against
 * the spec. ApiErrors become answers here, so that they are remembered for idempotent replay like any answer.
 */
export async function execute(
  operation: PreparedOperation,
  handlers: HandlerMap,
  services: ServerServices,
  validateResponses: boolean,
  input: ExecuteInput,
): Promise<StoredResponse> {
  const { spec, validator } = operation;
  try {
    const params: Record<string, unknown> = { ...input.params };
    const query = queryObject(input.query);
    const failure =
      validator.path(params) ??
      validator.query(query) ??
      (input.body === undefined
        ? spec.requestBody?.required
          ? invalidRequest('/body', 'is required')
          : undefined
        : validator.body(input.body));
    if (failure) throw failure;

    const handler = handlers[spec.operationId];
    if (!handler) throw notImplemented(spec.operationId);
    const context: OperationContext = {
      operation: spec,
      variant: input.identity.variant,
      tenant: input.identity.tenant,
      apiKey: input.identity.key,
      params: params as Record<string, string>,
      query,
      body: input.body,
      request: input.request,
      services,
    };
    const result = await handler(context);
    const status = result.status ?? spec.successStatus;
    if (validateResponses) {
      const mismatch = validator.response(status, result.body);
      if (mismatch) {
        console.error(`[cardrail-mock] ${spec.operationId} answered outside the spec: ${mismatch}`);
        return jsonResponse(500, {
          error: {
            code: 'internal_error',
            message: 'Response does not match the spec.',
            details: { operationId: spec.operationId, mismatch },
          },
        });
      }
    }
    return jsonResponse(status, result.body, result.headers);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return jsonResponse(error.status, error.toBody(), error.headers);
  }
}
