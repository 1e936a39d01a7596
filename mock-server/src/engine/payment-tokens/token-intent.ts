import { HttpError } from '../../core/errors.js';
import type { Tenant } from '../../core/tenant.js';
import type { CardScope } from '../card-scope.js';
import { engineState } from '../engine-state.js';
import type { ApprovalPage } from '../intents/approval-page.js';
import { isAwaitingApproval, isUsable, type IntentRecord } from '../intents/intent-record.js';
import { matchIntents } from '../intents/intent-matching.js';
import { createIntent } from '../intents/intent-service.js';
import type { EpochMs } from '../types.js';
import type { TokenTerms } from './token-terms.js';

/** The intent a token request carries out, or the one to declare for it. */
export type TokenIntent = { intent: IntentRecord } | { declare: true } | { intent: null };

const MINUTE_MS = 60_000;
const MAX_INTENT_TTL_MINUTES = 10_080;

/**
 * Finds the intent of a token request (docs/payment-tokens.md#intents-and-approval): the one it names, which must be
 * an open intent of the card that the payment matches (else 400 `intent_required`); else the oldest usable intent it
 * matches, then the oldest awaiting approval it matches; else, where the policy requires an intent or approval, an
 * intent to declare for the payment; else none.
 */
export function findTokenIntent(tenant: Tenant, scope: CardScope, terms: TokenTerms, intentId: string | undefined): TokenIntent {
  const now = tenant.now();
  const open = [...engineState(tenant).openIntents(scope.card.id).values()];
  const matching = (candidates: IntentRecord[]) => {
    const match = matchIntents(candidates, terms.maxAmount, terms.merchant.name);
    return match?.matched ? match.intent : undefined;
  };
  if (intentId !== undefined) {
    const named = open.find((intent) => intent.id === intentId);
    if (!named || !(isUsable(named, now) || isAwaitingApproval(named, now)))
      throw new HttpError(
        400,
        'intent_required',
        'The intent is not an open (pending or awaiting approval) intent of this card.',
        {
          intentId,
        },
      );
    const match = matchIntents([named], terms.maxAmount, terms.merchant.name);
    if (!match?.matched)
      throw new HttpError(400, 'intent_required', 'The payment does not match the intent (its amount or merchant).', {
        intentId,
        amountMatch: match?.amountMatch ?? false,
        merchantMatch: match?.merchantMatch ?? false,
      });
    return { intent: named };
  }
  const found =
    matching(open.filter((intent) => isUsable(intent, now))) ??
    matching(open.filter((intent) => isAwaitingApproval(intent, now)));
  if (found) return { intent: found };
  const { policy } = scope;
  return policy.requireIntent === true || policy.requireApproval === true ? { declare: true } : { intent: null };
}

/**
 * Declares the intent of a payment whose card requires one: its amount, merchant and currency are the token's, it
 * lives as long as the token, and it awaits approval where the policy says so (`intent.pending_approval`).
 */
export function declareTokenIntent(
  tenant: Tenant,
  scope: CardScope,
  terms: TokenTerms,
  approvalPage: ApprovalPage,
  now: EpochMs,
): IntentRecord {
  const ttlMinutes = Math.min(MAX_INTENT_TTL_MINUTES, Math.max(1, Math.ceil((terms.expiresAt - now) / MINUTE_MS)));
  return createIntent(
    tenant,
    {
      cardId: scope.card.id,
      summary: terms.summary.slice(0, 500),
      expectedAmount: terms.maxAmount,
      currency: terms.currency,
      expectedMerchant: terms.merchant.name,
      customerIntentId: terms.reference,
      ttlMinutes,
    },
    approvalPage,
  );
}
