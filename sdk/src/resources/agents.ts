import type { APIPromise } from '../core/api-promise.js';
import { APIResource } from '../core/api-resource.js';
import type { RequestOptions } from '../core/client-options.js';
import type { BodyArgs, ListItem, Operation as Op, QueryArgs, ResponseBody } from '../core/operation-types.js';
import type { PagePromise } from '../core/pagination.js';
import type { VariantPaths } from './variant-paths.js';

/** Agents spend on behalf of a customer (user) under their own policy and spending limit. */
export class Agents<Paths extends VariantPaths> extends APIResource<Paths> {
  /**
   * Creates an agent for a customer (user); it starts `active`, under its own spend policy.
   *
   * @example
   * ```ts
   * const agent = await cardrail.agents.create({ customerId: customer.id, name: 'Travel booker' });
   * ```
   */
  create(...[body, options]: BodyArgs<Op<Paths, '/agents', 'post'>>): APIPromise<ResponseBody<Op<Paths, '/agents', 'post'>>> {
    return this.request('post', '/agents', { body }, options);
  }

  /** The agent with this id; `NotFoundError` if there is none in this organization and mode. */
  retrieve(agentId: string, options?: RequestOptions): APIPromise<ResponseBody<Op<Paths, '/agents/{agentId}', 'get'>>> {
    return this.request('get', '/agents/{agentId}', { path: { agentId } }, options);
  }

  /** Changes the agent's name, policy, limits or metadata; fields left out keep their value. */
  update(
    agentId: string,
    ...[body, options]: BodyArgs<Op<Paths, '/agents/{agentId}', 'patch'>>
  ): APIPromise<ResponseBody<Op<Paths, '/agents/{agentId}', 'patch'>>> {
    return this.request('patch', '/agents/{agentId}', { path: { agentId }, body }, options);
  }

  /** A page of agents, newest first; iterate it to walk every following page. */
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

  /** Reactivates a suspended agent; its frozen cards stay frozen until unfrozen. */
  activate(agentId: string, options?: RequestOptions): APIPromise<ResponseBody<Op<Paths, '/agents/{agentId}/activate', 'post'>>> {
    return this.request('post', '/agents/{agentId}/activate', { path: { agentId } }, options);
  }
}
