import { HttpError } from '../../core/errors.js';
import type { Tenant } from '../../core/tenant.js';
import type { AccessRecord } from '../attestation.js';
import type { CardScope } from '../card-scope.js';
import { decide } from '../decision/decide.js';
import type { Decision } from '../decision/evaluate-spend.js';
import type { IntentRecord } from '../intents/intent-record.js';
import type { DeclineReason } from '../types.js';
import type { PaymentTokenRecord } from './token-record.js';

/** What a token decision reads of a token or of a token request. */
type TokenBounds = Pick<PaymentTokenRecord, 'maxAmount' | 'merchant' | 'mcc' | 'expiresAt' | 'summary'>;

/**
 * The access a token stands for: it attests a spend while it lives, as a credential access does in its window, so a
 * card with `requireAttestation` can pay by token without ever showing its number.
 */
export function tokenAccess(
  scope: CardScope,
  token: TokenBounds & { id?: string },
  intentId: string | null,
  at: number,
): AccessRecord {
  return {
    id: token.id ?? 'payment-token',
    cardId: scope.card.id,
    agentId: scope.card.agentId,
    intentId,
    summary: token.summary,
    expectedAmount: token.maxAmount,
    exposureMode: 'rawPan',
    at,
    expiresAt: token.expiresAt,
  };
}

/**
 * The decision an authorization of the token's full amount at its merchant would get now, with the token as its
 * attestation and its intent (even one still awaiting approval) as the intent it matches. Nothing changes.
 */
export function decideToken(tenant: Tenant, scope: CardScope, token: TokenBounds, intent: IntentRecord | null): Decision {
  const merchant = token.mcc === null ? { name: token.merchant.name } : { name: token.merchant.name, mcc: token.mcc };
  return decide(tenant, scope, token.maxAmount, merchant, {
    access: tokenAccess(scope, token, intent?.id ?? null, tenant.now()),
    intents: intent ? [intent] : undefined,
  });
}

const REVIEWS = new Set(['intent_required', 'approval_required', 'mandate_required']);

/** 400 `payment_token_declined`: the spend checks decline the payment; nothing is minted. */
export function paymentTokenDeclined(decision: Decision): HttpError {
  const reason = decision.reasons[0];
  return new HttpError(
    400,
    'payment_token_declined',
    `An authorization of this payment would be declined (${decision.declinedReason}): ${reason?.message ?? ''}`.trim(),
    {
      declinedReason: decision.declinedReason,
      // The reviews are not why it is refused: intents and approval are carried out, the mandate checked, on their own.
      reasons: decision.reasons.filter((r) => !REVIEWS.has(r.code)),
    },
  );
}

/**
 * 400 `payment_token_declined` for the AP2 mandate: none where the policy requires one (`mandate_required`), or one
 * refused (`mandate_unverifiable`, `mandate_rejected`, the message naming the check or the constraint), as an
 * authorization would be declined; nothing is minted, and the presentation is not used up.
 */
export function mandateDeclined(refusal: { reason: DeclineReason; message: string }): HttpError {
  return new HttpError(
    400,
    'payment_token_declined',
    `An authorization of this payment would be declined (${refusal.reason}): ${refusal.message}`,
    {
      declinedReason: refusal.reason,
      reasons: [{ code: refusal.reason, message: refusal.message }],
    },
  );
}
