import { CardrailError } from '../errors.js';
import type { APIPromise, RawResult } from './api-promise.js';
import type { CallInit, ClientCore } from './client-core.js';
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
 * take their types from it, and `keyof Paths` keeps the path strings it uses checked against the generated keys.
 */
export abstract class APIResource<Paths extends object> {
  protected readonly core: ClientCore<Paths>;

  constructor(core: ClientCore<Paths>) {
    this.core = core;
  }

  protected request<T>(
    method: HttpMethod,
    path: keyof Paths & string,
    params: CallParams,
    options?: RequestOptions,
  ): APIPromise<T> {
    return this.core.call<T>((init) => this.#send(method, path, params, init), options);
  }

  protected requestPage<T>(path: keyof Paths & string, params: CallParams, options?: RequestOptions): PagePromise<T> {
    return this.core.list<T>(
      (cursor, init) =>
        this.#send('get', path, { ...params, query: { ...params.query, ...(cursor === undefined ? {} : { cursor }) } }, init),
      options,
    );
  }

  #send(method: HttpMethod, path: string, params: CallParams, init: CallInit): Promise<RawResult> {
    const invalid = invalidPathParameter(params.path);
    if (invalid !== undefined) return Promise.reject(invalid);
    const request: Record<string, unknown> = { params: { path: params.path, query: params.query }, ...init };
    if (params.body !== undefined) request.body = params.body;
    return (this.core.raw as unknown as UntypedClient).request(method, path, request);
  }
}

/**
 * An empty, `.` or `..` id would send the request to another resource (`cards.retrieve('')` is `GET /cards/`, the card
 * list), so it is refused before anything is sent, as is a non-string id from JavaScript.
 */
function invalidPathParameter(path: Record<string, string> | undefined): CardrailError | undefined {
  for (const [name, value] of Object.entries(path ?? {})) {
    if (typeof value !== 'string' || value === '' || value === '.' || value === '..') {
      return new CardrailError({
        code: 'invalid_path_parameter',
        message: `${name} must be a non-empty id, got ${typeof value === 'string' ? JSON.stringify(value) : String(value)}.`,
      });
    }
  }
  return undefined;
}
