import type { ApiSchemas } from '../../core/stored.js';
import type { EpochMs } from '../types.js';
import { paymentRequestExpired, type TokenTerms, tokenExpiry } from './token-terms.js';

/** An ACP allowance (2026-04-17 `Allowance`), as the request's schema already checked it. */
export type AcpAllowance = ApiSchemas['AcpAllowance'];

/**
 * The terms of an ACP delegated payment's allowance: one use of at most `max_amount` of `currency` for one checkout
 * session of one merchant, until `expires_at` (refused with 400 `payment_request_expired` once past, before anything
 * is minted). The schema has checked the shape: `max_amount` an integer (a decimal is 400 before this runs),
 * `currency` lowercase.
 */
export function readAllowance(allowance: AcpAllowance, merchantName: string, now: EpochMs): TokenTerms {
  const expires = Date.parse(allowance.expires_at);
  if (expires <= now) throw paymentRequestExpired('/body/acp/allowance/expires_at', expires, now);
  return {
    protocol: 'acp',
    merchant: { name: merchantName, id: allowance.merchant_id },
    maxAmount: allowance.max_amount,
    currency: allowance.currency,
    expiresAt: tokenExpiry(expires, now),
    challengeId: null,
    checkoutSessionId: allowance.checkout_session_id,
    summary: `Checkout ${allowance.checkout_session_id} at ${merchantName}`.slice(0, 500),
    reference: allowance.checkout_session_id.slice(0, 200),
    mpp: null,
  };
}
