import type { APIPromise } from '../core/api-promise.js';
import { APIResource } from '../core/api-resource.js';
import type { RequestOptions } from '../core/client-options.js';
import type { ListItem, Operation as Op, QueryParams, RequestBody, ResponseBody } from '../core/operation-types.js';
import type { PagePromise } from '../core/pagination.js';
import type { VariantPaths } from './variant-paths.js';

/** Agents spend on behalf of a customer (user) under their own policy and spending limit. */
export class Agents<Paths extends VariantPaths> extends APIResource<Paths> {
  create(body: RequestBody<Op<Paths, '/agents', 'post'>>, options?: RequestOptions): APIPromise<ResponseBody<Op<Paths, '/agents', 'post'>>> {
    return this.request('post', '/agents', { body }, options);
  }

  retrieve(agentId: string, options?: RequestOptions): APIPromise<ResponseBody<Op<Paths, '/agents/{agentId}', 'get'>>> {
    return this.request('get', '/agents/{agentId}', { path: { agentId } }, options);
  }

  update(
    agentId: string,
    body: RequestBody<Op<Paths, '/agents/{agentId}', 'patch'>>,
    options?: RequestOptions,
  ): APIPromise<ResponseBody<Op<Paths, '/agents/{agentId}', 'patch'>>> {
    return this.request('patch', '/agents/{agentId}', { path: { agentId }, body }, options);
  }

  list(query?: QueryParams<Op<Paths, '/agents', 'get'>>, options?: RequestOptions): PagePromise<ListItem<Op<Paths, '/agents', 'get'>>> {
    return this.requestPage('/agents', { query }, options);
  }

  /** Deletes the agent; its cards are closed. */
  delete(agentId: string, options?: RequestOptions): APIPromise<ResponseBody<Op<Paths, '/agents/{agentId}', 'delete'>>> {
    return this.request('delete', '/agents/{agentId}', { path: { agentId } }, options);
  }

  /** Suspends the agent: its cards decline until it is activated again. */
  suspend(agentId: string, options?: RequestOptions): APIPromise<ResponseBody<Op<Paths, '/agents/{agentId}/suspend', 'post'>>> {
    return this.request('post', '/agents/{agentId}/suspend', { path: { agentId } }, options);
  }

  activate(agentId: string, options?: RequestOptions): APIPromise<ResponseBody<Op<Paths, '/agents/{agentId}/activate', 'post'>>> {
    return this.request('post', '/agents/{agentId}/activate', { path: { agentId } }, options);
  }
}
