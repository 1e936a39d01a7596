import type { APIPromise } from '../core/api-promise.js';
import { APIResource } from '../core/api-resource.js';
import type { RequestOptions } from '../core/client-options.js';
import type { BodyArgs, ListItem, Operation as Op, QueryArgs, ResponseBody } from '../core/operation-types.js';
import type { PagePromise } from '../core/pagination.js';
import type { VariantPaths } from './variant-paths.js';

/** API keys of the organization and mode. */
export class ApiKeys<Paths extends VariantPaths> extends APIResource<Paths> {
  /** Creates a key; the response carries the secret key, shown only here. */
  create(...[body, options]: BodyArgs<Op<Paths, '/api-keys', 'post'>>): APIPromise<ResponseBody<Op<Paths, '/api-keys', 'post'>>> {
    return this.request('post', '/api-keys', { body }, options);
  }

  /** A page of the organization's keys of this mode, redacted. */
  list(...[query, options]: QueryArgs<Op<Paths, '/api-keys', 'get'>>): PagePromise<ListItem<Op<Paths, '/api-keys', 'get'>>> {
    return this.requestPage('/api-keys', { query }, options);
  }

  /** Revokes a key: requests made with it are 401 at once. */
  revoke(keyId: string, options?: RequestOptions): APIPromise<ResponseBody<Op<Paths, '/api-keys/{keyId}', 'delete'>>> {
    return this.request('delete', '/api-keys/{keyId}', { path: { keyId } }, options);
  }
}
