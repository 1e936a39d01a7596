import type { AuthChallenge } from '@cardrail/sdk/www-authenticate';
import { base64urlToText } from '../../core/base64url.js';
import type { EpochMs } from '../types.js';
import { readCardChargeRequest } from './mpp-request.js';
import type { MppChallengeEcho } from './token-record.js';
import {
  DEFAULT_CHALLENGE_TTL_MS,
  invalidPaymentRequest,
  paymentRequestExpired,
  type TokenTerms,
  tokenExpiry,
} from './token-terms.js';

const FIELD = '/body/mpp/challenge';
/** RFC 3339 date-time (`T` and `Z` in either case, as RFC 3339 allows). */
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;
const BASE64URL_NO_PAD = /^[A-Za-z0-9_-]+$/;
const MAX_ID_LENGTH = 1024;

/**
 * The terms of the `Payment` challenge with `method="card"` and `intent="charge"` in a `WWW-Authenticate` value
 * (draft-httpauth-payment-00 "Challenge", draft-card-charge-00 "Request Schema"), checked before anything is minted:
 * a malformed value, challenge or request is 400 `invalid_payment_request` naming the parameter at fault, an expired
 * challenge 400 `payment_request_expired`. The parameters are kept as sent, for the credential to echo them byte for
 * byte (the challenge id may be an HMAC over them).
 */
export async function readCardChallenge(header: string, now: EpochMs): Promise<TokenTerms> {
  const challenge = selectCardChallenge(parse(await wwwAuthenticateParser(), header));
  const param = (name: string) => challenge.params.get(name);
  const id = param('id');
  if (id === undefined || id === '') throw invalidPaymentRequest(FIELD, 'id', 'is required and must not be empty');
  if (id.length > MAX_ID_LENGTH) throw invalidPaymentRequest(FIELD, 'id', `is longer than ${MAX_ID_LENGTH} characters`);
  const realm = param('realm');
  if (realm === undefined) throw invalidPaymentRequest(FIELD, 'realm', 'is required');
  const request = param('request');
  if (request === undefined || !BASE64URL_NO_PAD.test(request))
    throw invalidPaymentRequest(FIELD, 'request', 'is required: base64url of JSON, without padding');
  const expiresText = param('expires');
  let expires: EpochMs | undefined;
  if (expiresText !== undefined) {
    expires = RFC3339.test(expiresText) ? Date.parse(expiresText) : Number.NaN;
    if (Number.isNaN(expires)) throw invalidPaymentRequest(FIELD, 'expires', 'must be an RFC 3339 date-time');
    // Clients MUST NOT submit credentials for expired challenges: refused before anything is minted.
    if (expires <= now) throw paymentRequestExpired(FIELD, expires, now);
  }
  const opaque = param('opaque');
  if (opaque !== undefined && !BASE64URL_NO_PAD.test(opaque)) throw invalidPaymentRequest(FIELD, 'opaque', 'must be base64url');
  const charge = readCardChargeRequest(decodeRequest(request), FIELD);
  const echo: MppChallengeEcho = { id, realm, method: 'card', intent: 'charge', request };
  for (const name of ['expires', 'description', 'opaque', 'digest'] as const) {
    const value = param(name);
    if (value !== undefined) echo[name] = value;
  }
  return {
    protocol: 'mpp',
    merchant: { name: charge.merchantName, id: charge.recipient },
    maxAmount: charge.amount,
    currency: charge.currency,
    expiresAt: tokenExpiry(expires ?? now + DEFAULT_CHALLENGE_TTL_MS, now),
    challengeId: id,
    checkoutSessionId: null,
    summary: charge.description ?? `Payment to ${charge.merchantName}`,
    reference: id.slice(0, 200),
    mpp: { challenge: echo, encryptionJwk: charge.encryptionJwk },
  };
}

/**
 * The SDK's WWW-Authenticate parser, loaded on the first MPP challenge read: resolving the SDK's package from the mock
 * was a tenth of loading the mock's code, on every start, for what only a payment token minted from a challenge uses.
 */
let parser: Promise<(header: string) => AuthChallenge[]> | undefined;
function wwwAuthenticateParser(): Promise<(header: string) => AuthChallenge[]> {
  parser ??= import('@cardrail/sdk/www-authenticate').then((module) => module.parseWwwAuthenticate);
  return parser;
}

function parse(parseWwwAuthenticate: (header: string) => AuthChallenge[], header: string): AuthChallenge[] {
  try {
    return parseWwwAuthenticate(header);
  } catch (error) {
    // The parser throws SyntaxError, saying where, for a value that breaks RFC 9110's grammar, and nothing else.
    if (error instanceof SyntaxError) throw invalidPaymentRequest(FIELD, '', `is not a WWW-Authenticate value: ${error.message}`);
    throw error;
  }
}

/** The first `Payment` challenge of method `card` and intent `charge`; otherwise a 400 saying what was offered. */
function selectCardChallenge(challenges: AuthChallenge[]): AuthChallenge {
  const payment = challenges.filter((challenge) => challenge.scheme.toLowerCase() === 'payment');
  if (payment.length === 0) {
    const schemes = challenges.map((challenge) => challenge.scheme).join(', ');
    throw invalidPaymentRequest(FIELD, '', `has no Payment challenge (schemes offered: ${schemes})`);
  }
  const card = payment.filter((challenge) => challenge.params.get('method') === 'card');
  if (card.length === 0) {
    const methods = payment.map((challenge) => challenge.params.get('method') ?? '(none)').join(', ');
    throw invalidPaymentRequest(FIELD, 'method', `no Payment challenge has method="card" (methods offered: ${methods})`);
  }
  const charge = card.find((challenge) => challenge.params.get('intent') === 'charge');
  if (!charge) {
    const intents = card.map((challenge) => challenge.params.get('intent') ?? '(none)').join(', ');
    throw invalidPaymentRequest(FIELD, 'intent', `only intent="charge" is answered (the card challenges offer: ${intents})`);
  }
  return charge;
}

/** The request's JSON (draft-httpauth-payment-00: base64url without padding of JCS-serialized JSON). */
function decodeRequest(request: string): unknown {
  const text = base64urlToText(request);
  if (text === undefined) throw invalidPaymentRequest(FIELD, 'request', 'is not base64url');
  try {
    return JSON.parse(text);
  } catch {
    throw invalidPaymentRequest(FIELD, 'request', 'is not base64url of JSON');
  }
}
