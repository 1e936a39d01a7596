import { toIso, toIsoOrNull } from '../../core/clock.js';
import type { ApiSchemas } from '../../core/stored.js';
import type { PaymentTokenView } from '../../engine/payment-tokens/token-view.js';

/** A payment token as the spec's `PaymentToken`: timestamps in ISO 8601, its credential while it is active. */
export function renderPaymentToken(view: PaymentTokenView): ApiSchemas['PaymentToken'] {
  const { token } = view;
  return {
    id: token.id,
    cardId: token.cardId,
    agentId: token.agentId,
    customerId: token.customerId,
    protocol: token.protocol,
    status: token.status,
    merchant: { name: token.merchant.name, id: token.merchant.id },
    maxAmount: token.maxAmount,
    currency: token.currency,
    challengeId: token.challengeId,
    checkoutSessionId: token.checkoutSessionId,
    intentId: token.intentId,
    // Tokens stored before mandates reached them have no such field.
    mandate: token.mandate ? { openMandateHash: token.mandate.openMandateHash, reference: token.mandate.reference } : null,
    approvalUrl: token.approvalUrl,
    network: 'visa',
    last4: token.number === null ? null : token.number.slice(-4),
    panLastFour: token.panLastFour,
    expiresAt: toIso(token.expiresAt),
    transactionId: token.transactionId,
    rejectionReason: token.rejectionReason,
    createdAt: toIso(token.createdAt),
    issuedAt: toIsoOrNull(token.issuedAt),
    usedAt: toIsoOrNull(token.usedAt),
    revokedAt: toIsoOrNull(token.revokedAt),
    networkToken: view.networkToken,
    mppCredential: view.mppCredential,
  };
}
