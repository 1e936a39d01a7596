import type { RequestOptions } from './client-options.js';

/**
 * Type-level accessors into openapi-typescript's `operations`: every parameter and return type of the resource
 * methods is derived through these from the generated files, never restated.
 */

type JsonContent<Body> = Body extends { content: { 'application/json': infer Json } } ? Json : never;

/** The JSON request body of an operation; `BodyArgs` decides from the spec whether a method requires it. */
export type RequestBody<Operation> = Operation extends { requestBody?: infer Body } ? JsonContent<NonNullable<Body>> : never;

/** The JSON body of the operation's success response (200 or 201). */
export type ResponseBody<Operation> = Operation extends { responses: { 200: infer Success } }
  ? JsonContent<Success>
  : Operation extends { responses: { 201: infer Created } }
    ? JsonContent<Created>
    : never;

/** The query parameters of an operation. */
export type QueryParams<Operation> = Operation extends { parameters: { query?: infer Query } } ? NonNullable<Query> : never;

/** The item type of a list operation's envelope. */
export type ListItem<Operation> = ResponseBody<Operation> extends { data: Array<infer Item> } ? Item : never;

/** The HTTP methods the API uses, as openapi-typescript keys operations. */
export type HttpMethod = 'get' | 'post' | 'patch' | 'delete';

/** The operation at `paths[Path][Method]`. */
export type Operation<Paths, Path extends keyof Paths, Method extends HttpMethod> =
  Paths[Path] extends Record<Method, infer Operation> ? Operation : never;

/**
 * The trailing arguments of a method that sends a body: the body, required exactly when the spec requires it
 * (openapi-typescript writes `requestBody:` for a required body and `requestBody?:` for an optional one), then options.
 */
export type BodyArgs<Operation> = Operation extends { requestBody: unknown }
  ? [body: RequestBody<Operation>, options?: RequestOptions]
  : [body?: RequestBody<Operation>, options?: RequestOptions];

/**
 * The trailing arguments of a method that takes query parameters: required only when one of them is required
 * (openapi-typescript writes `query?:` when none is), then options.
 */
export type QueryArgs<Operation> = Operation extends { parameters: { query: unknown } }
  ? [query: QueryParams<Operation>, options?: RequestOptions]
  : [query?: QueryParams<Operation>, options?: RequestOptions];
