import type { CustomerApi } from '@cardrail/spec';
import type { PaymentToken, UserPaymentToken } from '../generated/api-names.js';

/** A risk signal of ACP's `delegate_payment` (`RiskSignal`, version 2026-04-17). */
export interface AcpRiskSignal {
  /** The only kind ACP defines. */
  type: 'card_testing';
  /** The platform's score (higher is riskier). */
  score: number;
  /** What the platform did about it. */
  action: 'blocked' | 'manual_review' | 'authorized';
}

/** An address of ACP's `delegate_payment` (`Address`, version 2026-04-17). */
export interface AcpAddress {
  /** The cardholder's name (at most 256 characters). */
  name: string;
  /** First line (at most 60 characters). */
  line_one: string;
  /** Second line (at most 60 characters). */
  line_two?: string;
  /** City (at most 60 characters). */
  city: string;
  /** State or region. */
  state: string;
  /** ISO 3166-1 alpha-2 country code. */
  country: string;
  /** Postal code (at most 20 characters). */
  postal_code: string;
}

/** The `payment_method` of a `delegate_payment` request for a Cardrail token (`PaymentMethodCard`). */
export interface AcpTokenPaymentMethod {
  /** Always `card`. */
  type: 'card';
  /** Always `network_token`: the number is a token, never the card's number. */
  card_number_type: 'network_token';
  /** The token's number. */
  number: string;
  /** The token's expiry month, two digits. */
  exp_month: string;
  /** The token's expiry year, four digits. */
  exp_year: string;
  /** The token's cryptogram (base64, 28 characters). */
  cryptogram: string;
  /** The electronic commerce indicator (`07`). */
  eci_value: string;
  /** Cardrail cards spend a prepaid balance. */
  display_card_funding_type: 'prepaid';
  /** The network of Cardrail's tokens. */
  display_brand: 'visa';
  /** The last four digits of the card's number, to show the buyer. */
  display_last4: string;
  /** The first eight digits of the token's number. */
  iin: string;
  /** Cardrail cards are virtual. */
  virtual: true;
  /** `payment_account_reference`: the card's PAR. */
  metadata: Record<string, string>;
}

/**
 * The `allowance` of a `delegate_payment` request (`Allowance`): the bounds the token was minted for, as the spec's
 * `AcpAllowance` states them (the same object the mint request's `acp.allowance` carried).
 */
export type AcpAllowanceBody = CustomerApi.components['schemas']['AcpAllowance'];

/**
 * The body of ACP's `POST /agentic_commerce/delegate_payment` (`DelegatePaymentRequest` of
 * `schema.delegate_payment.json`, version 2026-04-17), sent to the merchant's PSP.
 */
export interface AcpDelegatePaymentRequest {
  /** The token, as a card of type `network_token`. */
  payment_method: AcpTokenPaymentMethod;
  /** The bounds the token was minted for. */
  allowance: AcpAllowanceBody;
  /** The platform's risk signals. */
  risk_signals: AcpRiskSignal[];
  /** Correlation data, strings only. */
  metadata: Record<string, string>;
  /** The cardholder's billing address, when the seller needs one. */
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
  /** The cardholder's billing address, sent as `billing_address`. */
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
