import { invalidState } from '../../core/errors.js';
import type { Tenant } from '../../core/tenant.js';
import { loadCardScope } from '../card-scope.js';
import { allowedDifference } from '../intents/intent-matching.js';
import { isUsable } from '../intents/intent-record.js';
import { getIntent } from '../intents/intent-service.js';
import { toMajorUnits } from './currency-exponent.js';
import { checkPublicKey } from './mandate-issuers.js';
import { openMandateHash } from './mandate-hash.js';
import type { MandateJwk } from './mandate-types.js';

export interface IntentMandateRequest {
  agentKey: MandateJwk;
  conditionalTransactionId?: string | undefined;
}

/** Cardrail's `payment.reference` of an intent when no open checkout mandate is given (docs/mandates.md). */
function intentReference(intentId: string): string {
  return `cardrail:${intentId}`;
}

/**
 * `POST /intents/{intentId}/mandate`: the intent as unsigned AP2 v0.2 open payment mandate claims and their hash.
 * Amounts of the range are minor units; the budget is in major units (AP2's evaluator and its pull request #340),
 * converted with the currency's exponent. One occurrence, as an intent is one purchase. Nothing changes.
 */
export async function exportIntentMandate(tenant: Tenant, intentId: string, request: IntentMandateRequest) {
  const intent = getIntent(tenant, intentId);
  const now = tenant.now();
  if (!isUsable(intent, now))
    throw invalidState(`The intent is ${intent.status}; only a pending intent before its expiry exports a mandate.`, {
      status: intent.status,
    });
  checkPublicKey(request.agentKey, '/body/agentKey');
  const { card, policy } = loadCardScope(tenant, intent.cardId);
  const difference = allowedDifference(intent);
  const perAuth = policy.limits?.perAuth ?? Number.POSITIVE_INFINITY;
  const max = Math.min(Math.floor(intent.expectedAmount + difference), perAuth);
  const min = Math.min(Math.max(0, Math.ceil(intent.expectedAmount - difference)), max);
  const currency = intent.currency.toUpperCase();
  const constraints: Record<string, unknown>[] = [
    {
      type: 'payment.reference',
      conditional_transaction_id: request.conditionalTransactionId ?? intentReference(intent.id),
    },
    { type: 'payment.amount_range', currency, min, max },
    { type: 'payment.agent_recurrence', frequency: 'ON_DEMAND', max_occurrences: 1 },
    { type: 'payment.budget', currency, max: toMajorUnits(max, currency) },
  ];
  if (intent.expectedMerchant !== null)
    constraints.push({
      type: 'payment.allowed_payees',
      allowed: [{ id: intent.expectedMerchant, name: intent.expectedMerchant }],
    });
  constraints.push(
    {
      type: 'payment.allowed_payment_instruments',
      allowed: [{ id: card.id, type: 'card', description: `Card •••• ${card.last4}` }],
    },
    { type: 'payment.execution_date', not_after: new Date(intent.expiresAt).toISOString() },
  );
  // checkPublicKey made sure of a P-256 key with x and y; only its public members go in.
  const { kty, crv, x, y, kid } = request.agentKey;
  const jwk = { kty, crv: String(crv), x: String(x), y: String(y), ...(kid === undefined ? {} : { kid }) };
  const claims = {
    vct: 'mandate.payment.open.1' as const,
    constraints,
    cnf: { jwk },
    iat: Math.floor(now / 1000),
    exp: Math.floor(intent.expiresAt / 1000),
  };
  return { claims, openMandateHash: await openMandateHash(claims) };
}
