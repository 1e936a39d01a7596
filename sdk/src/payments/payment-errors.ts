import { CardrailError } from '../errors.js';

/** Why `payments.fetch` did not pay a merchant's 402. */
export type PaymentChallengeErrorCode =
  /** The `WWW-Authenticate` value or its card challenge breaks the drafts' grammar or rules (nothing was minted). */
  | 'malformed_challenge'
  /** The challenge's `expires` has passed: the draft forbids answering it (nothing was minted). */
  | 'challenge_expired'
  /** The card's policy, intents or risk engine refused the payment, or the card cannot pay it (nothing was minted). */
  | 'payment_declined'
  /** The token waits on a person's approval (`details.approvalUrl`, `details.paymentTokenId`). */
  | 'approval_required';

/**
 * `payments.fetch` refused to answer a merchant's MPP card challenge, or Cardrail refused to mint a token for it.
 * `details` names what was wrong (`parameter`, `reason`, `expiresAt`, `declinedReason`, `approvalUrl`...); `cause` is
 * the API's error when Cardrail refused.
 */
export class PaymentChallengeError extends CardrailError {
  override readonly name: string = 'PaymentChallengeError';
  declare readonly code: PaymentChallengeErrorCode;
}
