import type { APIPromise } from './api-promise.js';
import type { ClientCore } from './client-core.js';
import type { RequestOptions } from './client-options.js';
import type { CallParams } from './endpoint.js';
import type { HttpMethod } from './operation-types.js';
import type { PagePromise } from './pagination.js';

/**
 * Base of every resource namespace. Each operation is a one-line method, its method and path as the spec writes
 * them, its parameter and result types the named types generated from the spec (`CardCreateParams`, `Card`):
 *
 * ```ts
 * freeze(cardId: string, options?: RequestOptions): APIPromise<CardOf<Paths>> {
 *   return this.send('post', '/cards/{cardId}/freeze', { path: { cardId } }, options);
 * }
 * ```
 *
 * The path must be a key of `Paths` (the variant's generated `paths`; for a resource of both variants, a path of
 * both), and the SDK's type tests pin every method's parameters and result to the generated operation's. Methods are
 * bound to their instance, so `const { create } = cardrail.cards` still sends through its client.
 */
export abstract class APIResource<Paths extends object> {
  protected readonly core: ClientCore<Paths>;

  constructor(core: ClientCore<Paths>) {
    this.core = core;
    bindMethods(this);
  }

  /** Sends one operation: `params` holds its path values, query and body. */
  protected send<Result>(
    method: HttpMethod,
    path: keyof Paths & string,
    params: CallParams,
    options: RequestOptions | undefined,
  ): APIPromise<Result> {
    return this.core.send<Result>({ method, path }, params, checkedOptions(options));
  }

  /** Sends a list operation: a page that fetches the following ones. */
  protected sendPage<Item>(
    path: keyof Paths & string,
    params: CallParams,
    options: RequestOptions | undefined,
  ): PagePromise<Item> {
    return this.core.sendPage<Item>({ method: 'get', path }, params, checkedOptions(options));
  }
}

/** A query argument as sent: a JavaScript caller may pass anything there, and only an object is a query. */
export function queryOf(query: object | undefined): Record<string, unknown> | undefined {
  return typeof query === 'object' && query !== null ? (query as Record<string, unknown>) : undefined;
}

/** The options argument, or none: a JavaScript caller may pass anything there. */
function checkedOptions(options: unknown): RequestOptions | undefined {
  return typeof options === 'object' && options !== null ? options : undefined;
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
