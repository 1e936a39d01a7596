import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { sha256Hex } from '../../core/sha256.js';
import { withLuhnCheckDigit } from '../../core/luhn.js';
import { defineCollection, type Tenant } from '../../core/tenant.js';
import { type PaymentTokenRecord, paymentTokens } from './token-record.js';
import { sameTextInConstantTime } from '../../core/same-text.js';

/**
 * What makes a token usable at a merchant: its number, its cryptogram and its ECI (docs/payment-tokens.md).
 *
 * - The number: 16 digits, Visa's classic test prefix 411111, 9 random digits and the Luhn check digit; never the
 *   mock's card prefix 424242, so a token never equals a card number.
 * - The cryptogram: the first 20 bytes of HMAC-SHA-256 under a key of the organization and mode, over the token's id,
 *   number and bounds, in base64 (28 characters, the size of a TAVV). It is never stored: it is computed again to be
 *   shown and to be checked, so changing any bound of a stored token makes its cryptogram invalid.
 * - The ECI: `07`, a Visa e-commerce transaction without 3-D Secure (the draft's example).
 */
const TOKEN_PREFIX = '411111';
export const TOKEN_ECI = '07';
const CRYPTOGRAM_BYTES = 20;

/** The organization's cryptogram key, one record, kept with its state. */
const keys = defineCollection<{ id: 'cryptogram'; secret: string }>('engine.paymentTokenKeys');

function cryptogramKey(tenant: Tenant): Uint8Array {
  const records = keys.of(tenant);
  let record = records.get('cryptogram');
  if (!record) record = records.insert({ id: 'cryptogram', secret: tenant.ids.text(43) });
  return new TextEncoder().encode(record.secret);
}

/** A new token number, unused in this organization and mode. */
export function newTokenNumber(tenant: Tenant): string {
  for (;;) {
    const number = withLuhnCheckDigit(`${TOKEN_PREFIX}${tenant.ids.digits(9)}`);
    if (findByNumber(tenant, number) === undefined) return number;
  }
}

/** The token with this number, in this organization and mode only. */
export function findByNumber(tenant: Tenant, number: string): PaymentTokenRecord | undefined {
  return paymentTokens.of(tenant).page({ limit: 1, where: { number } }).items[0];
}

/** The cryptogram of an issued token (the same every time it is computed). */
export function cryptogramOf(tenant: Tenant, token: PaymentTokenRecord): string {
  const bound = JSON.stringify([
    token.id,
    token.number,
    token.maxAmount,
    token.currency,
    token.merchant.name,
    token.merchant.id,
    token.challengeId,
    token.checkoutSessionId,
    token.expiresAt,
  ]);
  const mac = hmac(sha256, cryptogramKey(tenant), new TextEncoder().encode(bound)).subarray(0, CRYPTOGRAM_BYTES);
  let binary = '';
  for (const byte of mac) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** Whether `presented` is the token's cryptogram, compared in constant time. */
export function isCryptogramOf(tenant: Tenant, token: PaymentTokenRecord, presented: string): boolean {
  return sameTextInConstantTime(cryptogramOf(tenant, token), presented);
}

/**
 * The card's payment account reference (PAR, 29 characters: a 4-character BIN controller id and 25 more), the same
 * for every token of the card. `CRDL` is no network's controller id: the reference is synthetic, as the numbers are.
 */
export function paymentAccountReference(cardId: string): string {
  return `CRDL${sha256Hex(`par:${cardId}`).slice(0, 25).toUpperCase()}`;
}
