/**
 * Type-level accessors into openapi-typescript's `operations`: every parameter and return type of the resource
 * methods is derived through these from the generated files, never restated.
 */

type JsonContent<Body> = Body extends { content: { 'application/json': infer Json } } ? Json : never;

/** The JSON request body of an operation (whether it is optional is decided by the method signature). */
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

export type HttpMethod = 'get' | 'post' | 'patch' | 'delete';

/** The operation at `paths[Path][Method]`. */
export type Operation<Paths, Path extends keyof Paths, Method extends HttpMethod> = Paths[Path] extends Record<Method, infer Operation>
  ? Operation
  : never;
