import { base64ToBytes } from '../base64.js';
import { PaymentChallengeError } from './payment-errors.js';
import { type AuthChallenge, parseWwwAuthenticate } from './www-authenticate.js';

/** What a merchant's MPP card challenge asks for, as read before anything is minted. */
export interface CardChallenge {
  /** The challenge's `id` (the draft's idempotency key at the merchant). */
  id: string;
  /** The merchant's protection space (`realm`). */
  realm: string;
  /** `expires` as sent (RFC 3339), or null when the challenge has none. */
  expires: string | null;
  /** The amount in base units (cents for USD), from the request's `amount` string. */
  amount: number;
  /** Lowercase ISO 4217. */
  currency: string;
  /** The merchant's display name (`methodDetails.merchantName`). */
  merchantName: string;
  /** The merchant's id at its acquirer (`recipient`), when the request names one. */
  recipient: string | null;
  /** What is paid for, as the merchant describes it (display only). */
  description: string | null;
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;
const BASE64URL_NO_PAD = /^[A-Za-z0-9_-]+$/;
const AMOUNT = /^[1-9][0-9]{0,11}$/;
/** Clients MUST handle challenges of at least 4 KB (draft-httpauth-payment-00); Cardrail reads up to 16 KB. */
const MAX_HEADER_LENGTH = 16_384;

function malformed(parameter: string, reason: string): PaymentChallengeError {
  const where = parameter === '' ? 'The WWW-Authenticate value' : `The card challenge's ${parameter}`;
  return new PaymentChallengeError({
    code: 'malformed_challenge',
    message: `${where} ${reason}.`,
    details: { parameter, reason },
  });
}

/**
 * The `Payment` challenge with `method="card"` and `intent="charge"` of a 402's `WWW-Authenticate` value
 * (draft-httpauth-payment-00 "Challenge", draft-card-charge-00 "Request Schema"), or null when the value offers none
 * (another scheme or method: not this client's to answer). Throws `PaymentChallengeError` `malformed_challenge` for
 * a value or card challenge that breaks the drafts, and `challenge_expired` once its `expires` has passed (clients
 * MUST NOT answer an expired challenge). The key and the rest of the request are checked by Cardrail when it mints.
 */
export function readCardChallenge(header: string, now: number = Date.now()): CardChallenge | null {
  if (header.length > MAX_HEADER_LENGTH) throw malformed('', `is longer than ${MAX_HEADER_LENGTH} characters`);
  let challenges: AuthChallenge[];
  try {
    challenges = parseWwwAuthenticate(header);
  } catch (error) {
    if (!/\bpayment\b/i.test(header)) return null;
    throw malformed('', `is not a WWW-Authenticate value: ${(error as Error).message}`);
  }
  const card = challenges.find(
    (challenge) =>
      challenge.scheme.toLowerCase() === 'payment' &&
      challenge.params.get('method') === 'card' &&
      challenge.params.get('intent') === 'charge',
  );
  if (!card) return null;
  const param = (name: string) => card.params.get(name);
  const id = param('id');
  if (!id) throw malformed('id', 'is required and must not be empty');
  const realm = param('realm');
  if (realm === undefined) throw malformed('realm', 'is required');
  const expires = param('expires') ?? null;
  if (expires !== null) {
    const at = RFC3339.test(expires) ? Date.parse(expires) : Number.NaN;
    if (Number.isNaN(at)) throw malformed('expires', 'must be an RFC 3339 date-time');
    if (at <= now)
      throw new PaymentChallengeError({
        code: 'challenge_expired',
        message: `The merchant's card challenge expired at ${expires}; nothing was minted. Request the resource again for a fresh challenge.`,
        details: { challengeId: id, expiresAt: expires },
      });
  }
  const request = decodeRequest(param('request'));
  const details = isObject(request.methodDetails) ? request.methodDetails : undefined;
  if (typeof request.amount !== 'string' || !AMOUNT.test(request.amount))
    throw malformed('request.amount', 'must be a string of base units such as "2500"');
  if (typeof request.currency !== 'string' || !/^[a-z]{3}$/.test(request.currency))
    throw malformed('request.currency', 'must be a lowercase ISO 4217 code such as "usd"');
  if (typeof details?.merchantName !== 'string' || details.merchantName === '')
    throw malformed('request.methodDetails.merchantName', 'is required');
  return {
    id,
    realm,
    expires,
    amount: Number(request.amount),
    currency: request.currency,
    merchantName: details.merchantName,
    recipient: typeof request.recipient === 'string' ? request.recipient : null,
    description: typeof request.description === 'string' ? request.description : null,
  };
}

function decodeRequest(request: string | undefined): Record<string, unknown> {
  if (request === undefined || !BASE64URL_NO_PAD.test(request))
    throw malformed('request', 'is required: base64url of JSON, without padding');
  const bytes = base64ToBytes(request);
  let value: unknown;
  try {
    value = bytes && JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    value = undefined;
  }
  if (!isObject(value)) throw malformed('request', 'is not base64url of a JSON object');
  return value;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
