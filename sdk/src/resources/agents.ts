import type { APIPromise } from '../core/api-promise.js';
import { APIResource } from '../core/api-resource.js';
import type { RequestOptions } from '../core/client-options.js';
import type { BodyArgs, ListItem, Operation as Op, QueryArgs, ResponseBody } from '../core/operation-types.js';
import type { PagePromise } from '../core/pagination.js';
import type { VariantPaths } from './variant-paths.js';

/** Agents spend on behalf of a customer (user) under their own policy and spending limit. */
export class Agents<Paths extends VariantPaths> extends APIResource<Paths> {
  create(...[body, options]: BodyArgs<Op<Paths, '/agents', 'post'>>): APIPromise<ResponseBody<Op<Paths, '/agents', 'post'>>> {
    return this.request('post', '/agents', { body }, options);
  }

  retrieve(agentId: string, options?: RequestOptions): APIPromise<ResponseBody<Op<Paths, '/agents/{agentId}', 'get'>>> {
    return this.request('get', '/agents/{agentId}', { path: { agentId } }, options);
  }

  update(
    agentId: string,
    ...[body, options]: BodyArgs<Op<Paths, '/agents/{agentId}', 'patch'>>
  ): APIPromise<ResponseBody<Op<Paths, '/agents/{agentId}', 'patch'>>> {
    return this.request('patch', '/agents/{agentId}', { path: { agentId }, body }, options);
  }

  list(...[query, options]: QueryArgs<Op<Paths, '/agents', 'get'>>): PagePromise<ListItem<Op<Paths, '/agents', 'get'>>> {
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
