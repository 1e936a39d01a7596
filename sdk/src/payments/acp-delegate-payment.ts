import type { PaymentToken, UserPaymentToken } from '../generated/api-names.js';

/** A risk signal of ACP's `delegate_payment` (`RiskSignal`, version 2026-04-17). */
export interface AcpRiskSignal {
  type: 'card_testing';
  score: number;
  action: 'blocked' | 'manual_review' | 'authorized';
}

/** An address of ACP's `delegate_payment` (`Address`, version 2026-04-17). */
export interface AcpAddress {
  name: string;
  line_one: string;
  line_two?: string;
  city: string;
  state: string;
  country: string;
  postal_code: string;
}

/**
 * The body of ACP's `POST /agentic_commerce/delegate_payment` (`DelegatePaymentRequest` of
 * `schema.delegate_payment.json`, version 2026-04-17), sent to the merchant's PSP.
 */
export interface AcpDelegatePaymentRequest {
  payment_method: {
    type: 'card';
    card_number_type: 'network_token';
    number: string;
    exp_month: string;
    exp_year: string;
    cryptogram: string;
    eci_value: string;
    display_card_funding_type: 'prepaid';
    display_brand: 'visa';
    display_last4: string;
    iin: string;
    virtual: true;
    metadata: Record<string, string>;
  };
  allowance: {
    reason: 'one_time';
    max_amount: number;
    currency: string;
    checkout_session_id: string;
    merchant_id: string;
    expires_at: string;
  };
  risk_signals: AcpRiskSignal[];
  metadata: Record<string, string>;
  billing_address?: AcpAddress;
}

/** Options of `delegatePaymentRequest`. */
export interface DelegatePaymentOptions {
  /** The intent the payment carries out (default: the token's): sent as `metadata.cardrail_intent_id`. */
  intentId?: string | null | undefined;
  /** The platform's risk signals (default: one `card_testing` signal, score 0, `authorized`: ACP asks for one). */
  riskSignals?: AcpRiskSignal[] | undefined;
  /** Extra `metadata` of the request (strings only, as ACP requires). */
  metadata?: Record<string, string> | undefined;
  billingAddress?: AcpAddress | undefined;
}

/**
 * ACP's `delegate_payment` request for an `active` ACP token (`paymentTokens.create(cardId, { acp })`): its network
 * token, cryptogram and ECI as the `payment_method` (`card_number_type: network_token`, `virtual: true`, the card's
 * last four digits to display) and its bounds as the `allowance`, which are the allowance the token was minted for.
 * The card's number is not in it. Send it to the merchant's PSP with an `Idempotency-Key` and `API-Version:
 * 2026-04-17`.
 */
export function delegatePaymentRequest(
  token: PaymentToken | UserPaymentToken,
  options: DelegatePaymentOptions = {},
): AcpDelegatePaymentRequest {
  const network = token.networkToken;
  if (token.protocol !== 'acp' || token.status !== 'active' || !network || !token.checkoutSessionId || !token.merchant.id)
    throw new TypeError(
      `delegatePaymentRequest: payment token ${token.id} is not an active ACP token (protocol ${token.protocol}, status ${token.status})`,
    );
  const intentId = options.intentId === undefined ? token.intentId : options.intentId;
  const metadata: Record<string, string> = {
    cardrail_payment_token_id: token.id,
    ...(intentId ? { cardrail_intent_id: intentId } : {}),
    ...options.metadata,
  };
  return {
    payment_method: {
      type: 'card',
      card_number_type: 'network_token',
      number: network.number,
      exp_month: network.expMonth,
      exp_year: network.expYear,
      cryptogram: network.cryptogram,
      eci_value: network.eci,
      display_card_funding_type: 'prepaid',
      display_brand: 'visa',
      display_last4: token.panLastFour,
      iin: network.number.slice(0, 8),
      virtual: true,
      metadata: { payment_account_reference: network.paymentAccountReference },
    },
    allowance: {
      reason: 'one_time',
      max_amount: token.maxAmount,
      currency: token.currency,
      checkout_session_id: token.checkoutSessionId,
      merchant_id: token.merchant.id,
      expires_at: token.expiresAt,
    },
    risk_signals: options.riskSignals ?? [{ type: 'card_testing', score: 0, action: 'authorized' }],
    metadata,
    ...(options.billingAddress === undefined ? {} : { billing_address: options.billingAddress }),
  };
}
