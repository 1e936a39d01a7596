import { APIResource, queryOf } from '../core/api-resource.js';
import type { APIPromise } from '../core/api-promise.js';
import type { RequestOptions } from '../core/client-options.js';
import type { PagePromise } from '../core/pagination.js';
import type {
  Agent,
  AgentCreateParams,
  AgentListParams,
  AgentUpdateParams,
  Deleted,
  UserAgent,
  UserAgentCreateParams,
  UserAgentListParams,
} from '../generated/api-names.js';
import type { ByVariant, VariantPaths } from './variant-paths.js';

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
  create(
    params: ByVariant<Paths, AgentCreateParams, UserAgentCreateParams>,
    options?: RequestOptions,
  ): APIPromise<ByVariant<Paths, Agent, UserAgent>> {
    return this.send('post', '/agents', { body: params }, options);
  }

  /** The agent with this id; `NotFoundError` if there is none in this organization and mode. */
  retrieve(agentId: string, options?: RequestOptions): APIPromise<ByVariant<Paths, Agent, UserAgent>> {
    return this.send('get', '/agents/{agentId}', { path: { agentId } }, options);
  }

  /** Changes the agent's name, policy, limits or metadata; fields left out keep their value. */
  update(agentId: string, params: AgentUpdateParams, options?: RequestOptions): APIPromise<ByVariant<Paths, Agent, UserAgent>> {
    return this.send('patch', '/agents/{agentId}', { path: { agentId }, body: params }, options);
  }

  /** A page of agents, newest first; iterate it to walk every following page. */
  list(
    query?: ByVariant<Paths, AgentListParams, UserAgentListParams>,
    options?: RequestOptions,
  ): PagePromise<ByVariant<Paths, Agent, UserAgent>> {
    return this.sendPage('/agents', { query: queryOf(query) }, options);
  }

  /** Deletes the agent; its cards are closed. */
  delete(agentId: string, options?: RequestOptions): APIPromise<Deleted> {
    return this.send('delete', '/agents/{agentId}', { path: { agentId } }, options);
  }

  /** Suspends the agent: its cards decline until it is activated again. */
  suspend(agentId: string, options?: RequestOptions): APIPromise<ByVariant<Paths, Agent, UserAgent>> {
    return this.send('post', '/agents/{agentId}/suspend', { path: { agentId } }, options);
  }

  /** Reactivates a suspended agent; its frozen cards stay frozen until unfrozen. */
  activate(agentId: string, options?: RequestOptions): APIPromise<ByVariant<Paths, Agent, UserAgent>> {
    return this.send('post', '/agents/{agentId}/activate', { path: { agentId } }, options);
  }
}
