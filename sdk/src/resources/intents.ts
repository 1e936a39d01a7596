import { APIResource } from '../core/api-resource.js';
import { waitForDecision, type WaitForDecisionOptions } from './intent-decision.js';
import type { VariantPaths } from './variant-paths.js';

const byIntentId = (intentId: string) => ({ intentId });

/** Intents declare a purchase before it happens, so authorizations can be matched, approved or rejected. */
export class Intents<Paths extends VariantPaths> extends APIResource<Paths> {
  /**
   * Declares a purchase before it happens; `pending_approval` when the card requires approval.
   *
   * @example
   * ```ts
   * const intent = await cardrail.intents.create({
   *   cardId: card.id,
   *   summary: 'GPU credits',
   *   expectedAmount: 2_500,
   *   expectedMerchant: 'OpenAI',
   * });
   * ```
   */
  readonly create = this.callWithBody('post', '/intents');

  /** The intent with this id and its status (`pending_approval`, `pending`, `rejected`, `matched`, ...). */
  readonly retrieve = this.call('get', '/intents/{intentId}', byIntentId);

  /** A page of intents, newest first. */
  readonly list = this.paged('/intents');

  /** Approves an intent that is pending human approval. */
  readonly approve = this.call('post', '/intents/{intentId}/approve', byIntentId);

  /** Rejects an intent pending approval: it becomes `rejected` and blocks the spend. */
  readonly reject = this.callWithBody('post', '/intents/{intentId}/reject', byIntentId);

  /**
   * Waits for a person to decide: reads the intent, pausing longer after each read, until it leaves
   * `pending_approval` (`pending` once approved, `rejected`, or `expired`), and resolves with it. Past `timeoutMs`
   * (default 5 minutes) it throws `DecisionTimeoutError`, which carries the intent as last read.
   *
   * @example
   * ```ts
   * const intent = await cardrail.intents.create({ cardId: card.id, summary: 'GPU credits', expectedAmount: 2_500 });
   * if (intent.status === 'pending_approval') {
   *   console.log(`Approve or reject at ${intent.approvalUrl}`);
   *   const decided = await cardrail.intents.waitForDecision(intent.id, { timeoutMs: 600_000 });
   *   if (decided.status !== 'pending') throw new Error(`Not approved: ${decided.status}`);
   * }
   * ```
   */
  readonly waitForDecision = (intentId: string, options?: WaitForDecisionOptions) =>
    waitForDecision(this.retrieve, intentId, options);
}
