import type { APIPromise, RawResult } from './api-promise.js';
import type { ClientCore } from './client-core.js';
import type { RequestOptions } from './client-options.js';
import type { HttpMethod } from './operation-types.js';
import type { PagePromise } from './pagination.js';

export interface CallParams {
  path?: Record<string, string>;
  query?: object | undefined;
  body?: unknown;
}

/** openapi-fetch's `request()` seen without the per-path types, which the resource methods declare themselves. */
interface UntypedClient {
  request(method: HttpMethod, path: string, init: Record<string, unknown>): Promise<RawResult>;
}

/**
 * Base of every resource namespace. `Paths` is the variant's generated `paths`; a resource's public method signatures
 * take their types from it, and `KnownPath` keeps the path strings it uses checked against the generated keys.
 */
export abstract class APIResource<Paths extends object> {
  protected readonly core: ClientCore<Paths>;

  constructor(core: ClientCore<Paths>) {
    this.core = core;
  }

  protected request<T>(method: HttpMethod, path: keyof Paths & string, params: CallParams, options?: RequestOptions): APIPromise<T> {
    const raw = this.core.raw as unknown as UntypedClient;
    return this.core.call<T>((init) => raw.request(method, path, { ...toInit(params), ...init }), options);
  }

  protected requestPage<T>(path: keyof Paths & string, params: CallParams, options?: RequestOptions): PagePromise<T> {
    const raw = this.core.raw as unknown as UntypedClient;
    return this.core.list<T>(
      (cursor, init) =>
        raw.request('get', path, { ...toInit({ ...params, query: { ...params.query, ...(cursor === undefined ? {} : { cursor }) } }), ...init }),
      options,
    );
  }
}

function toInit(params: CallParams): Record<string, unknown> {
  const init: Record<string, unknown> = { params: { path: params.path, query: params.query } };
  if (params.body !== undefined) init['body'] = params.body;
  return init;
}
