import { APIResource, queryOf } from '../core/api-resource.js';
import type { APIPromise } from '../core/api-promise.js';
import type { RequestOptions } from '../core/client-options.js';
import type { PagePromise } from '../core/pagination.js';
import type {
  Intent,
  IntentApproveParams,
  IntentCreateParams,
  IntentListParams,
  IntentMandate,
  IntentMandateParams,
  IntentRejectParams,
} from '../generated/api-names.js';
import { waitForDecision, type WaitForDecisionOptions } from './intent-decision.js';
import type { VariantPaths } from './variant-paths.js';

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
  create(params: IntentCreateParams, options?: RequestOptions): APIPromise<Intent> {
    return this.send('post', '/intents', { body: params }, options);
  }

  /** The intent with this id and its status (`pending_approval`, `pending`, `rejected`, `matched`, ...). */
  retrieve(intentId: string, options?: RequestOptions): APIPromise<Intent> {
    return this.send('get', '/intents/{intentId}', { path: { intentId } }, options);
  }

  /** A page of intents, newest first. */
  list(query?: IntentListParams, options?: RequestOptions): PagePromise<Intent> {
    return this.sendPage('/intents', { query: queryOf(query) }, options);
  }

  /**
   * The intent as the unsigned claims of an AP2 open payment mandate (`mandate.payment.open.1`) and their hash, for a
   * credential provider to sign: amounts in minor units, the budget in major units, the expected merchant as the
   * allowed payee, the card as the instrument, the intent's expiry as the execution window.
   */
  mandate(intentId: string, params: IntentMandateParams, options?: RequestOptions): APIPromise<IntentMandate> {
    return this.send('post', '/intents/{intentId}/mandate', { path: { intentId }, body: params }, options);
  }

  /**
   * Approves an intent that is pending human approval. `decidedBy` names the person and where they decided; the
   * intent's `decidedBy` records it beside the API key of the call.
   *
   * @example
   * ```ts
   * await cardrail.intents.approve(intent.id, { decidedBy: { name: 'Ada Lovelace', via: 'the approvals app' } });
   * ```
   */
  approve(intentId: string, params?: IntentApproveParams, options?: RequestOptions): APIPromise<Intent> {
    return this.send('post', '/intents/{intentId}/approve', { path: { intentId }, body: params }, options);
  }

  /** Rejects an intent pending approval: it becomes `rejected` and blocks the spend (`reason`, `decidedBy`). */
  reject(intentId: string, params?: IntentRejectParams, options?: RequestOptions): APIPromise<Intent> {
    return this.send('post', '/intents/{intentId}/reject', { path: { intentId }, body: params }, options);
  }

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
  waitForDecision(intentId: string, options?: WaitForDecisionOptions): Promise<Intent> {
    return waitForDecision(this.retrieve, intentId, options);
  }
}
