import type { CustomerApi, UserApi } from '@cardrail/sdk';
import type { CustomerOperationId, UserOperationId } from '@cardrail/spec/operations';
import type { Variant } from '../core/variant.js';

/**
 * The operations of each variant as the wire carries them, from the generated spec types: what the spec says a
 * request holds once validated (path parameters, query, JSON body) and what its success answer holds. Nothing here
 * is written by hand; a change of the spec changes these types.
 */
interface Operations {
  customer: CustomerApi.operations;
  user: UserApi.operations;
}

export type OperationIdOf<V extends Variant> = V extends 'customer' ? CustomerOperationId : UserOperationId;

/** The generated operation object of `Id` in variant `V`. */
type WireOperation<V extends Variant, Id extends OperationIdOf<V>> = Id extends keyof Operations[V] ? Operations[V][Id] : never;

type Json<Part> = Part extends { content: { 'application/json': infer Body } } ? Body : never;

/** An empty object type: what an operation without such parameters receives. */
export type NoParameters = Record<never, never>;

/** The validated path parameters (openapi-typescript writes `path?: never` where there are none). */
export type WireParams<V extends Variant, Id extends OperationIdOf<V>> =
  WireOperation<V, Id> extends { parameters: { path: infer Path } } ? Path : NoParameters;

/** The validated query; every parameter is optional unless the spec requires it. */
export type WireQuery<V extends Variant, Id extends OperationIdOf<V>> =
  WireOperation<V, Id> extends { parameters: { query?: infer Query } }
    ? [NonNullable<Query>] extends [never]
      ? NoParameters
      : NonNullable<Query>
    : NoParameters;

/** The validated JSON body: required when the spec requires it, `undefined` when it is optional and absent. */
export type WireBody<V extends Variant, Id extends OperationIdOf<V>> =
  WireOperation<V, Id> extends { requestBody: infer Body }
    ? Json<Body>
    : WireOperation<V, Id> extends { requestBody?: infer Body }
      ? [NonNullable<Body>] extends [never]
        ? undefined
        : Json<NonNullable<Body>> | undefined
      : undefined;

/** The JSON body of the operation's success answer (its 200 or 201). */
export type WireResponse<V extends Variant, Id extends OperationIdOf<V>> =
  WireOperation<V, Id> extends { responses: { 200: infer Ok } }
    ? Json<Ok>
    : WireOperation<V, Id> extends { responses: { 201: infer Created } }
      ? Json<Created>
      : never;

/** Everything a validated request of `Id` carries, as the wire names it. */
export type WireInput<V extends Variant, Id extends OperationIdOf<V>> = Shape<
  WireParams<V, Id>,
  WireQuery<V, Id>,
  WireBody<V, Id>
>;

/** Built from the resolved parts, so two variants' inputs compare by their shapes, never by their type arguments. */
type Shape<Params, Query, Body> = { params: Params; query: Query; body: Body };
