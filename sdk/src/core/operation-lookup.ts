import type { CustomerPaths, UserPaths } from '../resources/variant-paths.js';
import type { HttpMethod, ListItem, QueryParams, RequestBody, ResponseBody } from './operation-types.js';

/**
 * How a resource method's call is typed: looked up in the generated `paths` of both variants by method and path, as
 * openapi-fetch types its calls. Each lookup is `Paths extends UserPaths ? <user operation's> : <customer operation's>`,
 * the very form of `ByVariant`, so the compiler checks a method's declared types against the spec's once per variant:
 * `ByVariant<Paths, Card, UserCard>` against the customer and the user operation's result, each against its own.
 */

/** The paths of a variant that have an operation for `Method`. */
type PathWith<Paths, Method extends HttpMethod> = {
  [Path in keyof Paths]: Paths[Path] extends { [M in Method]: object } ? Path : never;
}[keyof Paths] &
  string;

/** Where an operation of both variants is: a path they share, or the pair of paths where they differ (owner routes). */
export type EndpointWith<Method extends HttpMethod> =
  | (PathWith<CustomerPaths, Method> & PathWith<UserPaths, Method>)
  | { readonly customer: PathWith<CustomerPaths, Method>; readonly user: PathWith<UserPaths, Method> };

type CustomerPathOf<At> = At extends { customer: infer Path } ? Path : At;
type UserPathOf<At> = At extends { user: infer Path } ? Path : At;

type OperationIn<Paths, Path, Method extends HttpMethod> = Path extends keyof Paths
  ? Paths[Path] extends { [M in Method]: infer Operation }
    ? Operation
    : never
  : never;
/** The customer variant's operation at an endpoint. */
type CustomerOperation<Method extends HttpMethod, At> = OperationIn<CustomerPaths, CustomerPathOf<At>, Method>;
/** The user variant's operation at an endpoint. */
type UserOperation<Method extends HttpMethod, At> = OperationIn<UserPaths, UserPathOf<At>, Method>;

/** The success body of the operation, in the variant of `Paths`. */
export type ResultAt<Paths, Method extends HttpMethod, At> = Paths extends UserPaths
  ? ResponseBody<UserOperation<Method, At>>
  : ResponseBody<CustomerOperation<Method, At>>;

/** The JSON body of the operation, in the variant of `Paths`. */
export type BodyAt<Paths, Method extends HttpMethod, At> = Paths extends UserPaths
  ? RequestBody<UserOperation<Method, At>>
  : RequestBody<CustomerOperation<Method, At>>;

/** The query of a list operation, in the variant of `Paths`. */
export type QueryAt<Paths, At> = Paths extends UserPaths
  ? QueryParams<UserOperation<'get', At>>
  : QueryParams<CustomerOperation<'get', At>>;

/** The item of a list operation's page, in the variant of `Paths`. */
export type ItemAt<Paths, At> = Paths extends UserPaths
  ? ListItem<UserOperation<'get', At>>
  : ListItem<CustomerOperation<'get', At>>;

type PathParametersOf<Operation> = Operation extends { parameters: { path: infer Ids } } ? Ids : never;

/**
 * The path's ids, as the operation names them (`{ cardId }`); where the variants name them differently (`customerId`,
 * `userId`), a value for each name. No `path` for a path without ids.
 */
type PathPart<Method extends HttpMethod, At> = [PathParametersOf<CustomerOperation<Method, At>>] extends [never]
  ? { path?: undefined }
  : { path: PathParametersOf<CustomerOperation<Method, At>> & PathParametersOf<UserOperation<Method, At>> };

/** Required when either variant requires a body (openapi-typescript writes `requestBody:` then, else `requestBody?:`). */
type BodyPart<Paths, Method extends HttpMethod, At> =
  CustomerOperation<Method, At> extends { requestBody: object }
    ? { body: BodyAt<Paths, Method, At> }
    : UserOperation<Method, At> extends { requestBody: object }
      ? { body: BodyAt<Paths, Method, At> }
      : { body?: BodyAt<Paths, Method, At> | undefined };

/** What a call of the operation at `At` fills in: its ids, and its body as the spec requires it (or none). */
export type CallParamsAt<Paths, Method extends HttpMethod, At> = PathPart<Method, At> & BodyPart<Paths, Method, At>;

/** What a call of the list operation at `At` fills in: its ids and its filters. */
export type PageParamsAt<Paths, At> = PathPart<'get', At> & { query?: QueryAt<Paths, At> | undefined };
