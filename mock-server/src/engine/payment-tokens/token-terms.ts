import { HttpError } from '../../core/errors.js';
import type { EpochMs } from '../types.js';
import type { RsaEncryptionJwk } from './encryption-key.js';
import type { MppChallengeEcho, PaymentTokenProtocol, TokenMerchant } from './token-record.js';

/**
 * What a token request asks for, from either protocol: the bounds the token is minted with (docs/payment-tokens.md).
 * mpp-challenge.ts reads them from an MPP card challenge, acp-allowance.ts from an ACP allowance.
 */
export interface TokenTerms {
  protocol: PaymentTokenProtocol;
  merchant: TokenMerchant;
  maxAmount: number;
  currency: string;
  expiresAt: EpochMs;
  challengeId: string | null;
  checkoutSessionId: string | null;
  /** What an intent declared for the payment says it buys. */
  summary: string;
  /** The reference an intent declared for the payment carries (`customerIntentId`). */
  reference: string;
  mpp: { challenge: MppChallengeEcho; encryptionJwk: RsaEncryptionJwk } | null;
}

/** How long a token of a challenge without `expires` lives. */
export const DEFAULT_CHALLENGE_TTL_MS = 15 * 60_000;
/** The longest a token lives, whatever its challenge or allowance says: the longest an intent lives too. */
const MAX_TOKEN_LIFETIME_MS = 7 * 24 * 3600_000;

/** The token's expiry: the request's, but never more than the longest a token lives. */
export function tokenExpiry(requested: EpochMs, now: EpochMs): EpochMs {
  return Math.min(requested, now + MAX_TOKEN_LIFETIME_MS);
}

/**
 * 400 `invalid_payment_request`: the challenge or allowance breaks its protocol's rules. `field` points into the
 * request body; `parameter` names the part of the challenge at fault (`request.methodDetails.encryptionJwk.kty`).
 */
export function invalidPaymentRequest(field: string, parameter: string, reason: string): HttpError {
  const where = parameter === '' ? field.replace(/^\//, '') : parameter;
  return new HttpError(400, 'invalid_payment_request', `${where}: ${reason}`, { field, parameter, reason });
}

/** 400 `payment_request_expired`: the challenge's `expires` or the allowance's `expires_at` has passed. */
export function paymentRequestExpired(field: string, expiresAt: EpochMs, now: EpochMs): HttpError {
  return new HttpError(
    400,
    'payment_request_expired',
    `The payment request expired at ${new Date(expiresAt).toISOString()}; ask the merchant for a new one.`,
    { field, expiresAt: new Date(expiresAt).toISOString(), now: new Date(now).toISOString() },
  );
}
