import { APIResource } from '../core/api-resource.js';
import type { VariantPaths } from './variant-paths.js';

const byAgentId = (agentId: string) => ({ agentId });

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
  readonly create = this.callWithBody('post', '/agents');

  /** The agent with this id; `NotFoundError` if there is none in this organization and mode. */
  readonly retrieve = this.call('get', '/agents/{agentId}', byAgentId);

  /** Changes the agent's name, policy, limits or metadata; fields left out keep their value. */
  readonly update = this.callWithBody('patch', '/agents/{agentId}', byAgentId);

  /** A page of agents, newest first; iterate it to walk every following page. */
  readonly list = this.paged('/agents');

  /** Deletes the agent; its cards are closed. */
  readonly delete = this.call('delete', '/agents/{agentId}', byAgentId);

  /** Suspends the agent: its cards decline until it is activated again. */
  readonly suspend = this.call('post', '/agents/{agentId}/suspend', byAgentId);

  /** Reactivates a suspended agent; its frozen cards stay frozen until unfrozen. */
  readonly activate = this.call('post', '/agents/{agentId}/activate', byAgentId);
}
