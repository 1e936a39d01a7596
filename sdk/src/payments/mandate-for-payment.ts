import type { CardChallenge } from './card-challenge.js';

/**
 * The payment a token is about to be minted for, as an AP2 closed payment mandate describes it (`payment_amount`,
 * `payee`, `payment_instrument`): what the agent signs its presentation for.
 */
export interface MandatePayment {
  /** The card that pays: the closed mandate's `payment_instrument.id`, and the presentation's `aud` is `urn:cardrail:card:<cardId>`. */
  cardId: string;
  /** The token's full amount, in minor units (`payment_amount.amount`). */
  amount: number;
  /** Lowercase ISO 4217 (`payment_amount.currency`, which AP2 writes in uppercase). */
  currency: string;
  /** The merchant the token is bound to (`payee`). */
  merchant: {
    /** Its name (MPP `methodDetails.merchantName`, or the ACP seller's name). */
    name: string;
    /** Its id at its acquirer (MPP `recipient`, ACP `merchant_id`), or null when it has none. */
    id: string | null;
  };
}

/**
 * Makes the AP2 mandate presentation (`agentMandate`: the open mandate, `~~`, and a key-bound closed mandate for
 * `payment`) a payment token is minted under; docs/mandates.md#payment-tokens.
 */
export type MandateForPayment = (payment: MandatePayment) => string | Promise<string>;

/** The payment an MPP card challenge asks for. */
export function paymentOf(cardId: string, challenge: CardChallenge): MandatePayment {
  return {
    cardId,
    amount: challenge.amount,
    currency: challenge.currency,
    merchant: { name: challenge.merchantName, id: challenge.recipient },
  };
}
