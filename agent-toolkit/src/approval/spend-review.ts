import type { CustomerApi } from '@cardrail/sdk';
import { money } from '../next-step.js';
import type { CardrailToolkit } from '../toolkit.js';

type Schemas = CustomerApi.components['schemas'];
/** An intent as the API answers it. */
export type Intent = Schemas['Intent'];
type Evaluation = Schemas['SpendEvaluation'];

/**
 * What a framework's approval step should do with a `declare_intent` call, from Cardrail's own judgement of the
 * spend (`POST /spend/evaluate`, then the card's policy):
 * - `not-applicable`: the spend needs nobody's approval; the call runs.
 * - `denied`: the API would decline the spend (`reason` says why, from the evaluation's reasons); the call does not
 *   run and the model is told why.
 * - `user-approval`: a person must decide. The intent is declared (`pending_approval`), so that it has its
 *   `approvalUrl` and `intent.pending_approval` reaches the webhooks while the person decides, in the app or on that
 *   page; `reason` says what they decide on.
 */
export type SpendReview =
  | { status: 'not-applicable' }
  | { status: 'denied'; reason: string; evaluation: Evaluation }
  | { status: 'user-approval'; reason: string; intent: Intent };

/** The fields of a `declare_intent` input the review reads. */
interface DeclareInput {
  cardId?: unknown;
  expectedAmount?: unknown;
  currency?: unknown;
  expectedMerchant?: unknown;
}

/** Whether a new intent of this amount starts `pending_approval` under the card's merged policy (docs/intents.md). */
function needsPerson(evaluation: Evaluation, amount: number): boolean {
  const { policy } = evaluation.context;
  if (evaluation.reasons.some((reason) => reason.code === 'approval_required')) return true;
  const autoApproved = typeof policy.autoApproveBelow === 'number' && amount < policy.autoApproveBelow;
  return policy.requireApproval === true && !autoApproved;
}

/**
 * Reviews a `declare_intent` call before it runs (see SpendReview). `callId` is the framework's id of the call: the
 * intent declared for a person's decision carries an idempotency key derived from it and the input, so the same
 * call running later (once approved) is that intent, not another. A card out of scope, or input the tool refuses,
 * throws the tool error the call itself would have got.
 */
export async function reviewSpend(toolkit: CardrailToolkit, input: unknown, callId: string): Promise<SpendReview> {
  const fields = (input ?? {}) as DeclareInput;
  const amount = fields.expectedAmount;
  if (typeof amount !== 'number') return { status: 'not-applicable' }; // the call itself says what is wrong
  const currency = typeof fields.currency === 'string' ? fields.currency : 'usd';
  const evaluation = (await toolkit.run('evaluate_spend', {
    ...(fields.cardId === undefined ? {} : { cardId: fields.cardId }),
    amount,
    currency,
    ...(typeof fields.expectedMerchant === 'string' ? { merchant: { name: fields.expectedMerchant } } : {}),
  })) as Evaluation;
  if (evaluation.decision === 'decline') {
    const why = evaluation.reasons.map((reason) => `${reason.message} (${reason.code})`).join(' ');
    return { status: 'denied', reason: `Cardrail would decline this spend: ${why}`, evaluation };
  }
  if (!needsPerson(evaluation, amount)) return { status: 'not-applicable' };
  const intent = (await toolkit.run('declare_intent', input, { callId })) as Intent;
  if (intent.status !== 'pending_approval') return { status: 'not-applicable' };
  const merchant = intent.expectedMerchant ? ` at ${intent.expectedMerchant}` : '';
  const where = intent.approvalUrl ? ` Approve or reject it here, or at ${intent.approvalUrl}.` : '';
  return {
    status: 'user-approval',
    reason: `Agent ${toolkit.agentId} wants to pay ${money(intent.expectedAmount, intent.currency)}${merchant} for "${intent.summary}" (intent ${intent.id}); the card's policy needs a person's approval.${where}`,
    intent,
  };
}

/**
 * Writes a person's decision on a declared purchase back to Cardrail: the intent the call declared (found again by
 * the call's idempotency key, so the same call gives the same intent) is approved or rejected while it waits. One
 * decided meanwhile elsewhere (on its approval page) is left as it is. Resolves with the intent as it now stands:
 * `pending` when approved, `rejected`, or whatever it became.
 */
export async function decideSpend(
  toolkit: CardrailToolkit,
  input: unknown,
  callId: string,
  decision: { approved: boolean; reason?: string | undefined },
): Promise<Intent> {
  // The declaration keyed by the call answers the intent as it now is (see the declare_intent tool).
  const declared = (await toolkit.run('declare_intent', input, { callId })) as Intent;
  if (declared.status !== 'pending_approval') return declared;
  try {
    if (decision.approved) return await toolkit.client.intents.approve(declared.id);
    return await toolkit.client.intents.reject(declared.id, decision.reason ? { reason: decision.reason.slice(0, 500) } : {});
  } catch (error) {
    // Decided elsewhere between the read and the answer: the intent as it now is says what happened.
    if ((error as { code?: unknown }).code === 'invalid_state') return await toolkit.client.intents.retrieve(declared.id);
    throw error;
  }
}

/**
 * After a framework approved a `declare_intent` call: the intent it declares (the same as at review time, by the
 * call's idempotency key) with the person's approval written back when it still waits for one.
 */
export async function declareApproved(toolkit: CardrailToolkit, input: unknown, callId: string): Promise<Intent> {
  return decideSpend(toolkit, input, callId, { approved: true });
}
