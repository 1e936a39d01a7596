import type { ApiSchemas } from '../../core/stored.js';
import { defineCollection } from '../../core/tenant.js';
import type { BoundMandate } from '../mandates/mandate-types.js';
import type { EpochMs } from '../types.js';
import type { RsaEncryptionJwk } from './encryption-key.js';

export type PaymentTokenStatus = ApiSchemas['PaymentTokenStatus'];
export type PaymentTokenProtocol = ApiSchemas['PaymentTokenProtocol'];
/** The challenge's parameters as the merchant sent them, echoed in the credential. */
export type MppChallengeEcho = ApiSchemas['MppChallengeEcho'];

/** The merchant a token is bound to: the name policy reads, and the id at its acquirer when there is one. */
export interface TokenMerchant {
  name: string;
  id: string | null;
}

/**
 * A payment token as the engine stores it (`PaymentToken`, docs/payment-tokens.md). Its number is kept once issued;
 * its cryptogram is not: it is recomputed from the token's bounds and the organization's key whenever it is shown or
 * checked (network-token.ts), so a stored state never holds a usable cryptogram.
 */
export interface PaymentTokenRecord {
  id: string;
  cardId: string;
  agentId: string | null;
  customerId: string;
  protocol: PaymentTokenProtocol;
  status: PaymentTokenStatus;
  merchant: TokenMerchant;
  /** The category code the token request named, for the policy's category rules. */
  mcc: string | null;
  /** What the payment buys, as an intent declared for it says (and a spend it attests). */
  summary: string;
  /** The card's display fields, as the token was minted (a token outlives nothing of its card, but says which). */
  panLastFour: string;
  expMonth: string;
  expYear: string;
  maxAmount: number;
  currency: string;
  challengeId: string | null;
  checkoutSessionId: string | null;
  intentId: string | null;
  approvalUrl: string | null;
  expiresAt: EpochMs;
  createdAt: EpochMs;
  issuedAt: EpochMs | null;
  usedAt: EpochMs | null;
  revokedAt: EpochMs | null;
  rejectedAt: EpochMs | null;
  rejectionReason: string | null;
  transactionId: string | null;
  /** The network token number, from the moment it is issued. */
  number: string | null;
  /** What an MPP credential echoes and is encrypted to (mpp only). */
  mpp: { challenge: MppChallengeEcho; encryptionJwk: RsaEncryptionJwk } | null;
  /** The AP2 mandate the token was minted with and is bound to; absent on tokens stored before mandates reached them. */
  mandate?: BoundMandate | null;
}

/** What a token is bound to besides its merchant: one challenge (mpp) or one checkout session (acp) of one card. */
export function bindingOf(token: Pick<PaymentTokenRecord, 'protocol' | 'challengeId' | 'checkoutSessionId'>): string {
  return `${token.protocol}:${token.protocol === 'mpp' ? token.challengeId : token.checkoutSessionId}`;
}

/**
 * Every token of the organization: listed by card (and status), found by number when a merchant presents one, by
 * card and binding when a second token is asked for the same challenge or checkout session, and by intent when a
 * person decides on the intent tokens wait on.
 */
export const paymentTokens = defineCollection<PaymentTokenRecord>('engine.paymentTokens', {
  filters: {
    cardId: (token) => token.cardId,
    status: (token) => token.status,
    number: (token) => token.number ?? undefined,
    binding: (token) => bindingOf(token),
    intentId: (token) => token.intentId ?? undefined,
  },
  indexes: [['cardId'], ['cardId', 'status'], ['number'], ['cardId', 'binding'], ['intentId', 'status']],
});

/** A token that may still become (or is) usable: `pending_approval` or `active`. */
export function isOpen(token: PaymentTokenRecord): boolean {
  return token.status === 'pending_approval' || token.status === 'active';
}
