import type { Ap2PaymentReceipt } from '../generated/ap2.js';
import { ap2PaymentReceiptRequired } from '../generated/ap2-receipt-requirements.js';
import type { JWTPayload } from 'jose';

/** A JSON Web Key Set, such as `GET /mandate-receipts/keys` answers. */
export interface ReceiptKeySet {
  /**
   * The public keys (JSON Web Keys, RFC 7517: `kty` `EC`, `crv` `P-256`, `x`, `y`, `kid`), the current key first: the
   * `kid` in a receipt's header picks the key that verifies it.
   */
  keys: JsonWebKey[];
}

/** What a receipt signed by Cardrail says, beyond AP2 v0.2's `payment_receipt`. */
export type CardrailPaymentReceipt = Ap2PaymentReceipt & {
  /**
   * True when the issuer itself confirmed the payment on the rail (the field AP2 pull request #335, still open, adds
   * to `payment_receipt`); Cardrail settles the card, so its receipts say true.
   */
  rail_confirmation_verified?: boolean;
  /** The hash of the open mandate the payment was made under (a Cardrail extension). */
  open_mandate_hash?: string;
};

/** A receipt whose signature verified, with the key that signed it. */
export interface VerifiedPaymentReceipt {
  /** The receipt's claims (the payload of the JWS), once its signature and every check asked for held. */
  receipt: CardrailPaymentReceipt;
  /** The `kid` of the key that signed it. */
  kid: string | undefined;
}

/** What a receipt must say beyond a valid signature; without options any receipt the keys verify is accepted. */
export interface VerifyPaymentReceiptOptions {
  /**
   * The closed mandate the receipt must be for: its reference (`transaction.mandate.reference`, the base64url SHA-256
   * of the closed mandate's JWT). A receipt for another mandate is refused.
   */
  reference?: string;
  /** The issuer the receipt must name (Cardrail's is `urn:cardrail:issuer`). */
  issuer?: string;
}

/**
 * Verifies an AP2 `payment_receipt` signed by Cardrail (`transaction.mandate.receipt`, or `paymentReceipt` of
 * `transaction.settled`) against the service's published keys: a compact JWS, ES256 only, whose `kid` names one of
 * `keys`; then its `reference` when one is given. Throws when anything does not hold. Loads `jose` on first use.
 *
 * @example
 * ```ts
 * const keys = await cardrail.mandates.receiptKeys();
 * const { receipt } = await verifyPaymentReceipt(txn.mandate.receipt, keys, { reference: txn.mandate.reference });
 * ```
 */
export async function verifyPaymentReceipt(
  jws: string,
  keys: ReceiptKeySet,
  options: VerifyPaymentReceiptOptions = {},
): Promise<VerifiedPaymentReceipt> {
  const { createLocalJWKSet, jwtVerify } = await import('jose');
  const { payload, protectedHeader } = await jwtVerify(jws, createLocalJWKSet(keys as Parameters<typeof createLocalJWKSet>[0]), {
    algorithms: ['ES256'],
    ...(options.issuer === undefined ? {} : { issuer: options.issuer }),
  });
  const problem = receiptProblem(payload);
  if (problem !== undefined) throw new Error(`The signed claims are not an AP2 payment_receipt: ${problem}.`);
  const receipt = payload as JWTPayload & CardrailPaymentReceipt;
  if (options.reference !== undefined && receipt.reference !== options.reference)
    throw new Error(`The receipt is for the mandate ${receipt.reference}, not ${options.reference}.`);
  return { receipt, kid: protectedHeader.kid };
}

/**
 * What the claims lack to be a `payment_receipt` (AP2's schema, as generated from spec/ap2: the members every receipt
 * has, then those its status requires), or undefined when they are one.
 */
function receiptProblem(claims: JWTPayload): string | undefined {
  const { members, byStatus } = ap2PaymentReceiptRequired;
  const statuses = Object.keys(byStatus) as (keyof typeof byStatus)[];
  const status = statuses.find((name) => claims.status === name);
  if (status === undefined) return `\`status\` must be ${statuses.map((name) => `"${name}"`).join(' or ')}`;
  for (const [name, type] of Object.entries({ ...members, ...byStatus[status] })) {
    const value = claims[name];
    if (type === 'integer' ? !Number.isInteger(value) : typeof value !== type) return `\`${name}\` must be ${TYPE_WORDS[type]}`;
  }
  return undefined;
}

/** The JSON types a receipt's members have, in the words of an error. */
const TYPE_WORDS: Record<'string' | 'integer', string> = { string: 'a string', integer: 'a whole number' };
