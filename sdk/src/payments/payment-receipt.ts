import { base64ToBytes } from '../base64.js';

/** A merchant's `Payment-Receipt` for a card charge (draft-card-charge-00 "Receipt Generation"). */
export interface PaymentReceipt {
  /** The challenge the payment answered. */
  challengeId: string;
  /** `card`. */
  method: string;
  /** `success`, the only status the draft defines. */
  status: string;
  /** The Server Enabler's reference of the authorization. */
  reference: string;
  /** When the merchant was paid, RFC 3339. */
  timestamp: string;
  /** The merchant's reference of the order, echoed from the challenge's request. */
  externalId?: string | undefined;
  /** Members a later draft may add. */
  [member: string]: unknown;
}

/** The decoded `Payment-Receipt` header (base64url of JSON), or null when it is absent or not a receipt. */
export function readPaymentReceipt(headers: Headers): PaymentReceipt | null {
  const value = headers.get('payment-receipt');
  if (value === null || !/^[A-Za-z0-9_-]+$/.test(value)) return null;
  try {
    const receipt: unknown = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(base64ToBytes(value)));
    if (receipt === null || typeof receipt !== 'object') return null;
    const { challengeId, method, status, reference, timestamp } = receipt as Record<string, unknown>;
    const strings = [challengeId, method, status, reference, timestamp].every((member) => typeof member === 'string');
    return strings ? (receipt as PaymentReceipt) : null;
  } catch {
    return null;
  }
}
