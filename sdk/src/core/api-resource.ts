import type { VariantPaths } from '../resources/variant-paths.js';
import type { APIPromise } from './api-promise.js';
import type { ClientCore } from './client-core.js';
import type { RequestOptions } from './client-options.js';
import type { CallParams, Endpoint } from './endpoint.js';
import type { CallParamsAt, EndpointWith, ItemAt, PageParamsAt, ResultAt } from './operation-lookup.js';
import type { HttpMethod } from './operation-types.js';
import type { PagePromise } from './pagination.js';

/**
 * Base of every resource namespace. Each operation is a one-line method over the named types generated from the
 * spec (`CardCreateParams`, `Card`), sending its method and path as the spec writes them:
 *
 * ```ts
 * freeze(cardId: string, options?: RequestOptions): APIPromise<ByVariant<Paths, Card, UserCard>> {
 *   return this.send('post', '/cards/{cardId}/freeze', { path: { cardId } }, options);
 * }
 * ```
 *
 * `send` types the call by the spec (operation-lookup.ts): the path must be an operation of both variants, the ids
 * and body those of its operation, and its result is the operation's, so a declaration whose types differ from the
 * spec's in either variant does not compile. Methods are bound to their instance, so `const { create } =
 * cardrail.cards` still sends through its client.
 */
export abstract class APIResource<Paths extends VariantPaths> {
  protected readonly core: ClientCore<Paths>;

  constructor(core: ClientCore<Paths>) {
    this.core = core;
    bindMethods(this);
  }

  /** @internal Sends one operation: `params` holds its path ids and body. */
  protected send<Method extends HttpMethod, At extends EndpointWith<Method>>(
    method: Method,
    endpoint: At,
    params: NoInfer<CallParamsAt<Paths, Method, At>>,
    options: RequestOptions | undefined,
  ): APIPromise<ResultAt<Paths, Method, At>>;
  // The implementation sends what the signature above has checked; relating its generic types to the core's plain
  // ones would make the compiler expand them over every path.
  protected send(method: HttpMethod, endpoint: Endpoint, params: CallParams, options: RequestOptions | undefined) {
    return this.core.send(method, endpoint, params, options);
  }

  /** @internal Sends a list operation: a page that fetches the following ones. */
  protected sendPage<At extends EndpointWith<'get'>>(
    endpoint: At,
    params: NoInfer<PageParamsAt<Paths, At>>,
    options: RequestOptions | undefined,
  ): PagePromise<ItemAt<Paths, At>>;
  protected sendPage(endpoint: Endpoint, params: CallParams, options: RequestOptions | undefined) {
    return this.core.sendPage(endpoint, params, options);
  }
}

/** A query argument as sent: a JavaScript caller may pass anything there, and only an object is a query. */
export function queryOf<Query extends object>(query: Query | undefined): Query | undefined {
  return typeof query === 'object' && query !== null ? query : undefined;
}

/**
 * Binds the methods a resource class declares to the instance, so that a method passed on its own
 * (`const { create } = cardrail.cards`) still sends through its client.
 */
function bindMethods(resource: object): void {
  for (
    let proto = Object.getPrototypeOf(resource);
    proto && proto !== APIResource.prototype;
    proto = Object.getPrototypeOf(proto)
  ) {
    for (const name of Object.getOwnPropertyNames(proto)) {
      const value = (resource as Record<string, unknown>)[name];
      if (name === 'constructor' || typeof value !== 'function' || Object.hasOwn(resource, name)) continue;
      Object.defineProperty(resource, name, { value: value.bind(resource), writable: true, configurable: true });
    }
  }
}
