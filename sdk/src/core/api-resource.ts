import type { APIPromise } from './api-promise.js';
import type { ClientCore } from './client-core.js';
import type { RequestOptions } from './client-options.js';
import type { CallParams, Endpoint } from './endpoint.js';
import type { BodyArgs, HttpMethod, ListItem, Operation, PathParams, QueryArgs, ResponseBody } from './operation-types.js';
import type { PagePromise } from './pagination.js';

/**
 * The leading arguments of a method, one per `{name}` of its path in order, turned into the path's values:
 * `(cardId: string) => ({ cardId })`. Its parameters (plain ones: no defaults, no rest) are the method's first
 * parameters, names included, as editors show them; the method takes as many ids as it declares.
 */
type PathIds<Path extends string, Ids extends string[]> = (...ids: Ids) => PathParams<Path>;

/** The type a method resolves to where it is not the spec's response type (see `returning`). */
export interface ResultType<Result> {
  readonly result?: Result;
}

/** Declares the result type of an operation whose response the SDK types more closely than the spec (stored events). */
export function returning<Result>(): ResultType<Result> {
  return {};
}

/**
 * Base of every resource namespace. Each operation is one declaration, its method and path as the spec writes them:
 *
 * ```ts
 * readonly freeze = this.call('post', '/cards/{cardId}/freeze', byCardId);
 * ```
 *
 * The declaration is both the method's call and its type: parameters and result are looked up in `Paths` (the
 * variant's generated `paths`) at that method and path, and the path must be one of its keys.
 */
export abstract class APIResource<Paths extends object> {
  protected readonly core: ClientCore<Paths>;

  constructor(core: ClientCore<Paths>) {
    this.core = core;
    bindMethods(this);
  }

  /** An operation without a request body: `(...ids, options?)`. */
  protected call<
    Method extends HttpMethod,
    Path extends keyof Paths & string,
    Ids extends string[] = [],
    Result = ResponseBody<Operation<Paths, Path, Method>>,
  >(
    method: Method,
    path: Path,
    ids?: PathIds<Path, Ids>,
    _result?: ResultType<Result>,
  ): (...args: [...Ids, options?: RequestOptions]) => APIPromise<Result> {
    const endpoint: Endpoint = { method, path };
    const idCount = ids?.length ?? 0;
    return (...args: unknown[]) =>
      this.core.send<Result>(endpoint, { path: pathValues(ids, args, idCount) }, optionsAt(args, idCount));
  }

  /** An operation with a request body: `(...ids, body, options?)`, the body optional exactly where the spec says. */
  protected callWithBody<Method extends HttpMethod, Path extends keyof Paths & string, Ids extends string[] = []>(
    method: Method,
    path: Path,
    ids?: PathIds<Path, Ids>,
  ): (
    ...args: [...Ids, ...BodyArgs<Operation<Paths, Path, Method>>]
  ) => APIPromise<ResponseBody<Operation<Paths, Path, Method>>> {
    const endpoint: Endpoint = { method, path };
    const idCount = ids?.length ?? 0;
    return (...args: unknown[]) =>
      this.core.send<ResponseBody<Operation<Paths, Path, Method>>>(
        endpoint,
        { path: pathValues(ids, args, idCount), body: args[idCount] },
        optionsAt(args, idCount + 1),
      );
  }

  /** A list operation: `(...ids, query?, options?)`, answered with a page that fetches the following ones. */
  protected paged<Path extends keyof Paths & string, Ids extends string[] = [], Item = ListItem<Operation<Paths, Path, 'get'>>>(
    path: Path,
    ids?: PathIds<Path, Ids>,
    _item?: ResultType<Item>,
  ): (...args: [...Ids, ...QueryArgs<Operation<Paths, Path, 'get'>>]) => PagePromise<Item> {
    const endpoint: Endpoint = { method: 'get', path };
    const idCount = ids?.length ?? 0;
    return (...args: unknown[]) => {
      const params: CallParams = { path: pathValues(ids, args, idCount), query: queryAt(args, idCount) };
      return this.core.sendPage<Item>(endpoint, params, optionsAt(args, idCount + 1));
    };
  }
}

function pathValues<Ids extends string[]>(
  ids: ((...ids: Ids) => Record<string, string>) | undefined,
  args: readonly unknown[],
  idCount: number,
): Record<string, string> | undefined {
  // The leading arguments are the ids by the method's type; a non-string from JavaScript is refused before sending.
  return ids?.(...(args.slice(0, idCount) as Ids));
}

/** The options argument, or none: a JavaScript caller may pass anything there. */
function optionsAt(args: readonly unknown[], index: number): RequestOptions | undefined {
  const options = args[index];
  return typeof options === 'object' && options !== null ? options : undefined;
}

function queryAt(args: readonly unknown[], index: number): Record<string, unknown> | undefined {
  const query = args[index];
  return isRecord(query) ? query : undefined;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

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
