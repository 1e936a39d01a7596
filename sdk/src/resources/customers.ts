import type { APIPromise } from '../core/api-promise.js';
import { APIResource } from '../core/api-resource.js';
import type { RequestOptions } from '../core/client-options.js';
import type { ListItem, Operation as Op, QueryParams, RequestBody, ResponseBody } from '../core/operation-types.js';
import type { PagePromise } from '../core/pagination.js';
import type { CustomerPaths } from './variant-paths.js';

type Paths = CustomerPaths;

/** Customers own agents and cards and hold balances (customer variant). */
export class Customers extends APIResource<Paths> {
  /** Creates a customer and starts KYC. */
  create(body: RequestBody<Op<Paths, '/customers', 'post'>>, options?: RequestOptions): APIPromise<ResponseBody<Op<Paths, '/customers', 'post'>>> {
    return this.request('post', '/customers', { body }, options);
  }

  retrieve(customerId: string, options?: RequestOptions): APIPromise<ResponseBody<Op<Paths, '/customers/{customerId}', 'get'>>> {
    return this.request('get', '/customers/{customerId}', { path: { customerId } }, options);
  }

  update(
    customerId: string,
    body: RequestBody<Op<Paths, '/customers/{customerId}', 'patch'>>,
    options?: RequestOptions,
  ): APIPromise<ResponseBody<Op<Paths, '/customers/{customerId}', 'patch'>>> {
    return this.request('patch', '/customers/{customerId}', { path: { customerId }, body }, options);
  }

  list(query?: QueryParams<Op<Paths, '/customers', 'get'>>, options?: RequestOptions): PagePromise<ListItem<Op<Paths, '/customers', 'get'>>> {
    return this.requestPage('/customers', { query }, options);
  }

  /** Marks the customer `deleted`; its agents and cards are closed. */
  delete(customerId: string, options?: RequestOptions): APIPromise<ResponseBody<Op<Paths, '/customers/{customerId}', 'delete'>>> {
    return this.request('delete', '/customers/{customerId}', { path: { customerId } }, options);
  }

  balances(customerId: string, options?: RequestOptions): APIPromise<ResponseBody<Op<Paths, '/customers/{customerId}/balances', 'get'>>> {
    return this.request('get', '/customers/{customerId}/balances', { path: { customerId } }, options);
  }
}
