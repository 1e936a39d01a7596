import type { APIPromise } from '../core/api-promise.js';
import { APIResource } from '../core/api-resource.js';
import type { RequestOptions } from '../core/client-options.js';
import type { ListItem, Operation as Op, QueryParams, RequestBody, ResponseBody } from '../core/operation-types.js';
import type { PagePromise } from '../core/pagination.js';
import type { UserPaths } from './variant-paths.js';

type Paths = UserPaths;

/** Users own agents and cards and hold balances (user variant; a user is a customer). */
export class Users extends APIResource<Paths> {
  /** Creates a user and starts KYC. */
  create(body: RequestBody<Op<Paths, '/users', 'post'>>, options?: RequestOptions): APIPromise<ResponseBody<Op<Paths, '/users', 'post'>>> {
    return this.request('post', '/users', { body }, options);
  }

  retrieve(userId: string, options?: RequestOptions): APIPromise<ResponseBody<Op<Paths, '/users/{userId}', 'get'>>> {
    return this.request('get', '/users/{userId}', { path: { userId } }, options);
  }

  update(
    userId: string,
    body: RequestBody<Op<Paths, '/users/{userId}', 'patch'>>,
    options?: RequestOptions,
  ): APIPromise<ResponseBody<Op<Paths, '/users/{userId}', 'patch'>>> {
    return this.request('patch', '/users/{userId}', { path: { userId }, body }, options);
  }

  list(query?: QueryParams<Op<Paths, '/users', 'get'>>, options?: RequestOptions): PagePromise<ListItem<Op<Paths, '/users', 'get'>>> {
    return this.requestPage('/users', { query }, options);
  }

  /** Marks the user `deleted`; its agents and cards are closed. */
  delete(userId: string, options?: RequestOptions): APIPromise<ResponseBody<Op<Paths, '/users/{userId}', 'delete'>>> {
    return this.request('delete', '/users/{userId}', { path: { userId } }, options);
  }

  balances(userId: string, options?: RequestOptions): APIPromise<ResponseBody<Op<Paths, '/users/{userId}/balances', 'get'>>> {
    return this.request('get', '/users/{userId}/balances', { path: { userId } }, options);
  }
}
