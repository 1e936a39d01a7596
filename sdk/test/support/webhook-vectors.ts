// One set of webhook test vectors for every implementation (node:crypto and Web Crypto, synchronous and asynchronous,
// sources and built files): headers, bodies, secrets and clocks, valid and each failure kind. Signatures are made
// here with node:crypto's createHmac, independently of the SDK (no SDK parsing, encoding or formatting); KNOWN_ANSWERS
// pins that helper to fixed digests, so a change of the signing scheme cannot slip through both sides at once.
import { createHmac } from 'node:crypto';
import type { WebhookVerificationErrorCode } from '../../src/errors.js';
import type {
  GenerateSignatureHeaderParams,
  GenerateWebhookHeadersParams,
  VerifySignatureParams,
} from '../../src/webhooks/index.js';

export const T = 1_795_000_000;
export const SECRET = 'whsec_9TyI1uOwv1DdE-ExAmPlEkEy_Abc12345';
const ROTATED = 'whsec_rotatedSecret_ZZZZZZZZZZZZZZZZZZ';
const UNICODE_SECRET = 'whsec_ünïcødé_🔑_secret';
export const PAYLOAD = '{"id":"evt_123","type":"card.frozen","createdAt":"2026-11-21T19:00:00.000Z","data":{"cardId":"card_1"}}';
const UNICODE = '{"id":"evt_u","type":"card.frozen","data":{"note":"Zoë paid 12 € for 🍕"}}';
/** A lone surrogate: UTF-8 encoders turn it into U+FFFD (EF BF BD); every implementation must sign those bytes. */
const LONE_SURROGATE = '{"note":"\uD800"}';
const NON_UTF8 = Uint8Array.of(0x7b, 0xff, 0xfe, 0x7d);

/** Hex HMAC-SHA256 of `<t>.` + body with the whole secret string as the key: the scheme, written with node:crypto. */
export function sign(secret: string, timestamp: number, body: string | Uint8Array): string {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex');
}

/** A secret as the API issues it: `whsec_` and 32 alphanumeric characters, base64 for 24 bytes. */
export const STANDARD_SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const STANDARD_ROTATED = 'whsec_7bT9mQ2xVr4kLp8sYw3nZc6dHf1jGa5e';
/** A secret issued before the standard base64 alphabet was chosen: URL-safe characters, as in the durable state. */
const LEGACY_SECRET = 'whsec_Xk-9fQ2_Vr4kLp8sYw3nZc6dHf1j-a5e';
const MESSAGE_ID = 'whd_1AsD4fG7hJ';

/**
 * Base64 HMAC-SHA256 of `<id>.<t>.` + body keyed with the secret's base64 part decoded (Buffer reads both alphabets):
 * the Standard Webhooks scheme, written with node:crypto.
 */
export function signStandard(secret: string, id: string, timestamp: number, body: string | Uint8Array): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  return createHmac('sha256', key).update(`${id}.${timestamp}.`).update(body).digest('base64');
}

/** Standard Webhooks digests computed once and written down: `signStandard` must keep producing them. */
export const STANDARD_KNOWN_ANSWERS: ReadonlyArray<{
  secret: string;
  id: string;
  timestamp: number;
  body: string;
  base64: string;
}> = [
  {
    secret: STANDARD_SECRET,
    id: MESSAGE_ID,
    timestamp: T,
    body: PAYLOAD,
    base64: 'pPYXwIfqjl1sMlFxWd5ETZxHZCSy12p+Q7dxXsaYBfw=',
  },
  { secret: LEGACY_SECRET, id: MESSAGE_ID, timestamp: T, body: PAYLOAD, base64: 'xdht7AnYdGdBtaRBEaKxcb2kHuFLqM1LnZnR9ZlXfJ0=' },
];

/** Digests computed once and written down: `sign` must keep producing them. */
export const KNOWN_ANSWERS: ReadonlyArray<{ secret: string; timestamp: number; body: string | Uint8Array; hex: string }> = [
  { secret: SECRET, timestamp: T, body: PAYLOAD, hex: '6bef58eaf023f53158ccbe53ce3234d9acaeff1a0631c0617bb52ef97d7e2a04' },
  { secret: ROTATED, timestamp: T, body: PAYLOAD, hex: '6409b0e2dc4a704bfc5507c5032773a76cc0ebac31b71d5fd1274b3edad1a05f' },
  { secret: SECRET, timestamp: T, body: UNICODE, hex: 'af807da08f8f478e666fe8cc8b5d9f5c1aacf3dfe9a2bbf846c0626cbefc6fcf' },
  {
    secret: UNICODE_SECRET,
    timestamp: T,
    body: PAYLOAD,
    hex: '2447068233c78a40ef118ed9706fc2b797aaf2cc960d129458c41b61abe647f6',
  },
  { secret: SECRET, timestamp: T, body: NON_UTF8, hex: 'ab9d7b315253a60c8e214337862c1fab7ed9db9c83619e618927799f4b0b429d' },
  { secret: SECRET, timestamp: T, body: '', hex: 'bf5bab625c5e8c747e9bfd043673b340c429f963f77be0b710e7290724645723' },
  { secret: SECRET, timestamp: T, body: LONE_SURROGATE, hex: '1170861def7804b5f02c4dced0fa23a7ccc27f313a013353ae77849108321bbf' },
  { secret: SECRET, timestamp: 0, body: PAYLOAD, hex: 'e646e1e7d8cb84069c47f905aa6c456bf4f26ab3a2f51a983cf1a9351da6d1c9' },
];

/** What a call must do: succeed, or throw a WebhookVerificationError with this code, or a TypeError (bad options). */
export type Expected = 'valid' | WebhookVerificationErrorCode | 'TypeError';

export interface VerifyVector {
  readonly name: string;
  readonly params: VerifySignatureParams;
  readonly expected: Expected;
}

const digest = sign(SECRET, T, PAYLOAD);
const valid = `t=${T},v1=${digest}`;
const bytes = new TextEncoder().encode(PAYLOAD);
const framed = new TextEncoder().encode(`xx${PAYLOAD}yy`);
const base = { payload: PAYLOAD, header: valid, secret: SECRET, now: T };

function vector(name: string, params: Partial<VerifySignatureParams>, expected: Expected): VerifyVector {
  return { name, params: { ...base, ...params }, expected };
}

/** The headers of a delivery as the API sends it: both schemes, one signature per secret in each (newest first). */
function deliveryHeaders(secrets: readonly string[], options: { id?: string; timestamp?: number; body?: string } = {}) {
  const { id = MESSAGE_ID, timestamp = T, body = PAYLOAD } = options;
  return {
    'cardrail-signature': `t=${timestamp},${secrets.map((secret) => `v1=${sign(secret, timestamp, body)}`).join(',')}`,
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': secrets.map((secret) => `v1,${signStandard(secret, id, timestamp, body)}`).join(' '),
  };
}

const both = deliveryHeaders([STANDARD_SECRET]);
const { 'cardrail-signature': _cardrailOnly, ...standardOnly } = both;
const standardSignature = both['webhook-signature'];

function headersVector(
  name: string,
  headers: VerifySignatureParams['headers'],
  expected: Expected,
  params: Partial<VerifySignatureParams> = {},
): VerifyVector {
  return { name, params: { payload: PAYLOAD, headers, secret: STANDARD_SECRET, now: T, ...params }, expected };
}

/** Verification from the request's headers: either scheme, or both as the API sends them. */
const HEADERS_VECTORS: readonly VerifyVector[] = [
  headersVector('both schemes, as a plain record (node:http req.headers)', both, 'valid'),
  headersVector('both schemes, as a Headers object', new Headers(both), 'valid'),
  headersVector('Standard Webhooks only, as a Headers object', new Headers(standardOnly), 'valid'),
  headersVector(
    'Standard Webhooks only, record with capitalised names',
    {
      'Webhook-Id': MESSAGE_ID,
      'Webhook-Timestamp': String(T),
      'WEBHOOK-SIGNATURE': standardSignature,
    },
    'valid',
  ),
  headersVector('Cardrail-Signature only, in headers', { 'Cardrail-Signature': both['cardrail-signature'] }, 'valid'),
  headersVector('anything with get(name), such as a Map', new Map(Object.entries(both)), 'valid'),
  headersVector('a header as a one-element array', { ...standardOnly, 'webhook-id': [MESSAGE_ID] }, 'valid'),
  headersVector(
    'blank Cardrail-Signature beside Standard Webhooks: absent',
    { ...standardOnly, 'cardrail-signature': ' ' },
    'valid',
  ),
  headersVector(
    'Standard Webhooks: unknown versions skipped, extra spaces ignored',
    { ...standardOnly, 'webhook-signature': `v1a,${'A'.repeat(86)}==  ${standardSignature} ` },
    'valid',
  ),
  headersVector(
    'Standard Webhooks: a wrong v1 then the right one',
    {
      ...standardOnly,
      'webhook-signature': `v1,${'A'.repeat(43)}= ${standardSignature}`,
    },
    'valid',
  ),
  headersVector('rotation: receiver knows the old secret', deliveryHeaders([STANDARD_ROTATED, STANDARD_SECRET]), 'valid'),
  headersVector('rotation: receiver knows the new secret', deliveryHeaders([STANDARD_ROTATED, STANDARD_SECRET]), 'valid', {
    secret: STANDARD_ROTATED,
  }),
  headersVector('rotation: a list of secrets, the second matches', both, 'valid', {
    secret: [STANDARD_ROTATED, STANDARD_SECRET],
  }),
  headersVector('a URL-safe secret issued before the standard alphabet', deliveryHeaders([LEGACY_SECRET]), 'valid', {
    secret: LEGACY_SECRET,
  }),
  headersVector('Standard Webhooks only, secret without whsec_', standardOnly, 'valid', {
    secret: STANDARD_SECRET.slice('whsec_'.length),
  }),
  headersVector('Standard Webhooks: exactly 300 s old', standardOnly, 'valid', { now: T + 300 }),

  headersVector('no signature header at all', { 'content-type': 'application/json' }, 'missing_header'),
  headersVector('empty headers', new Headers(), 'missing_header'),
  headersVector(
    'webhook-id and webhook-signature without webhook-timestamp',
    {
      'webhook-id': MESSAGE_ID,
      'webhook-signature': standardSignature,
    },
    'missing_header',
  ),
  headersVector('only webhook-signature', { 'webhook-signature': standardSignature }, 'missing_header'),
  headersVector('webhook-timestamp not digits', { ...standardOnly, 'webhook-timestamp': `${T}.5` }, 'malformed_header'),
  headersVector('webhook-id with a space', { ...standardOnly, 'webhook-id': 'msg 1' }, 'malformed_header'),
  headersVector('v1 value not base64 of 32 bytes', { ...standardOnly, 'webhook-signature': 'v1,abc' }, 'malformed_header'),
  headersVector(
    'signature entry without a comma',
    { ...standardOnly, 'webhook-signature': `v1=${standardSignature.slice(3)}` },
    'malformed_header',
  ),
  headersVector(
    'Cardrail-Signature malformed beside valid Standard Webhooks',
    { ...both, 'cardrail-signature': 'garbage' },
    'malformed_header',
  ),
  headersVector('only v1a signatures', { ...standardOnly, 'webhook-signature': `v1a,${'A'.repeat(86)}==` }, 'missing_signature'),
  headersVector('Standard Webhooks: 301 s old', standardOnly, 'timestamp_out_of_tolerance', { now: T + 301 }),
  headersVector('both schemes: 301 s in the future', both, 'timestamp_out_of_tolerance', { now: T - 301 }),
  headersVector('Standard Webhooks: tampered body', standardOnly, 'signature_mismatch', {
    payload: PAYLOAD.replace('card_1', 'card_2'),
  }),
  headersVector('Standard Webhooks: another webhook-id', { ...standardOnly, 'webhook-id': 'whd_other' }, 'signature_mismatch'),
  headersVector('Standard Webhooks: wrong secret', standardOnly, 'signature_mismatch', { secret: STANDARD_ROTATED }),
  headersVector('both schemes: tampered body', both, 'signature_mismatch', { payload: PAYLOAD.replace('card_1', 'card_2') }),
  headersVector('both schemes: wrong secret', both, 'signature_mismatch', { secret: STANDARD_ROTATED }),
  headersVector(
    'both schemes, different times',
    { ...deliveryHeaders([STANDARD_SECRET], { timestamp: T + 1 }), 'cardrail-signature': both['cardrail-signature'] },
    'conflicting_headers',
  ),
  headersVector(
    'both schemes: Cardrail-Signature holds, webhook-signature made with another secret',
    { ...both, 'webhook-signature': `v1,${signStandard(STANDARD_ROTATED, MESSAGE_ID, T, PAYLOAD)}` },
    'conflicting_headers',
  ),
  headersVector(
    'both schemes: webhook-signature holds, Cardrail-Signature made with another secret',
    { ...both, 'cardrail-signature': `t=${T},v1=${sign(STANDARD_ROTATED, T, PAYLOAD)}` },
    'conflicting_headers',
  ),
  headersVector('Standard Webhooks with a secret that is not base64', standardOnly, 'invalid_secret', {
    secret: 'whsec_not base64!',
  }),
  headersVector('parsed body with headers', both, 'invalid_payload', { payload: JSON.parse(PAYLOAD) as never }),
  headersVector('headers and header both given', both, 'TypeError', { header: both['cardrail-signature'] }),
  headersVector('headers is null', null as never, 'TypeError'),
  headersVector('headers is a string', 'webhook-id: x' as never, 'TypeError'),
];

export const VERIFY_VECTORS: readonly VerifyVector[] = [
  // Valid deliveries: every body form, odd bytes and secrets, the grammar's freedoms, the tolerance's edges.
  vector('string body', {}, 'valid'),
  vector('Uint8Array body', { payload: bytes }, 'valid'),
  vector('Buffer body', { payload: Buffer.from(PAYLOAD) }, 'valid'),
  vector('ArrayBuffer body', { payload: bytes.buffer.slice(0) }, 'valid'),
  vector('DataView over a slice of a larger buffer', { payload: new DataView(framed.buffer, 2, framed.length - 4) }, 'valid'),
  vector('Uint8Array subarray of a larger buffer', { payload: framed.subarray(2, framed.length - 2) }, 'valid'),
  vector('multi-byte UTF-8 string body', { payload: UNICODE, header: `t=${T},v1=${sign(SECRET, T, UNICODE)}` }, 'valid'),
  vector(
    'same body as bytes',
    { payload: new TextEncoder().encode(UNICODE), header: `t=${T},v1=${sign(SECRET, T, UNICODE)}` },
    'valid',
  ),
  vector('non-UTF-8 bytes, signed as received', { payload: NON_UTF8, header: `t=${T},v1=${sign(SECRET, T, NON_UTF8)}` }, 'valid'),
  vector(
    'lone surrogate in a string body (signed as U+FFFD)',
    { payload: LONE_SURROGATE, header: `t=${T},v1=${sign(SECRET, T, LONE_SURROGATE)}` },
    'valid',
  ),
  vector('empty body', { payload: '', header: `t=${T},v1=${sign(SECRET, T, '')}` }, 'valid'),
  vector('non-ASCII secret', { secret: UNICODE_SECRET, header: `t=${T},v1=${sign(UNICODE_SECRET, T, PAYLOAD)}` }, 'valid'),
  vector('t=0 at now 0', { header: `t=0,v1=${sign(SECRET, 0, PAYLOAD)}`, now: 0 }, 'valid'),
  vector('now as a Date (sub-second part ignored)', { now: new Date(T * 1000 + 999) }, 'valid'),
  vector('whitespace around elements and =', { header: ` t = ${T} , v1 = ${digest} ` }, 'valid'),
  vector('upper-case hex', { header: `t=${T},v1=${digest.toUpperCase()}` }, 'valid'),
  vector('unknown schemes and empty v1 skipped', { header: `v0=abc,t=${T},v2=${'0'.repeat(64)},v1=,v1=${digest}` }, 'valid'),
  vector('empty elements skipped', { header: `,t=${T},,v1=${digest},` }, 'valid'),
  vector('v1 before t', { header: `v1=${digest},t=${T}` }, 'valid'),
  vector('a wrong v1 then the right one', { header: `t=${T},v1=${'0'.repeat(64)},v1=${digest}` }, 'valid'),
  vector(
    'rotation: two v1, receiver knows the old secret',
    { header: `t=${T},v1=${sign(ROTATED, T, PAYLOAD)},v1=${digest}` },
    'valid',
  ),
  vector(
    'rotation: two v1, receiver knows the new secret',
    { header: `t=${T},v1=${sign(ROTATED, T, PAYLOAD)},v1=${digest}`, secret: ROTATED },
    'valid',
  ),
  vector('rotation: a list of secrets, the second matches', { secret: [ROTATED, SECRET] }, 'valid'),
  vector('exactly 300 s old', { now: T + 300 }, 'valid'),
  vector('exactly 300 s in the future', { now: T - 300 }, 'valid'),
  vector('custom tolerance, at its edge', { now: T + 3600, toleranceSeconds: 3600 }, 'valid'),
  vector('tolerance 0 at the same second', { toleranceSeconds: 0 }, 'valid'),

  // missing_header
  vector('no header (undefined)', { header: undefined }, 'missing_header'),
  vector('no header (null)', { header: null }, 'missing_header'),
  vector('empty header', { header: '' }, 'missing_header'),
  vector('blank header', { header: '   ' }, 'missing_header'),

  // malformed_header
  vector('no t', { header: `v1=${digest}` }, 'malformed_header'),
  vector('non-numeric t', { header: `t=abc,v1=${digest}` }, 'malformed_header'),
  vector('negative t', { header: `t=-${T},v1=${digest}` }, 'malformed_header'),
  vector('fractional t', { header: `t=1.5,v1=${digest}` }, 'malformed_header'),
  vector('empty t', { header: `t=,v1=${digest}` }, 'malformed_header'),
  vector('t beyond a safe integer', { header: `t=99999999999999999999,v1=${digest}` }, 'malformed_header'),
  vector('repeated t', { header: `t=${T},t=${T},v1=${digest}` }, 'malformed_header'),
  vector('v1 one digit short', { header: `t=${T},v1=${digest.slice(1)}` }, 'malformed_header'),
  vector('v1 not hex', { header: `t=${T},v1=${'g'.repeat(64)}` }, 'malformed_header'),
  vector('semicolon separator', { header: `t=${T};v1=${digest}` }, 'malformed_header'),
  vector('element without =', { header: `${T},v1=${digest}` }, 'malformed_header'),
  vector('element without a key', { header: `=x,t=${T},v1=${digest}` }, 'malformed_header'),
  vector('garbage', { header: 'garbage' }, 'malformed_header'),

  // missing_signature
  vector('only t', { header: `t=${T}` }, 'missing_signature'),
  vector('only an empty v1', { header: `t=${T},v1=` }, 'missing_signature'),
  vector('only another scheme', { header: `t=${T},v0=${digest}` }, 'missing_signature'),

  // timestamp_out_of_tolerance
  vector('301 s old', { now: T + 301 }, 'timestamp_out_of_tolerance'),
  vector('301 s in the future (now as a Date)', { now: new Date((T - 301) * 1000) }, 'timestamp_out_of_tolerance'),
  vector('beyond a custom tolerance', { now: T + 11, toleranceSeconds: 10 }, 'timestamp_out_of_tolerance'),
  vector(
    'system clock (no now), years after t=0',
    { header: `t=0,v1=${sign(SECRET, 0, PAYLOAD)}`, now: undefined },
    'timestamp_out_of_tolerance',
  ),

  // signature_mismatch
  vector('tampered body', { payload: PAYLOAD.replace('card_1', 'card_2') }, 'signature_mismatch'),
  vector(
    'tampered body byte',
    { payload: Uint8Array.from(bytes, (byte, index) => (index === 10 ? byte ^ 1 : byte)) },
    'signature_mismatch',
  ),
  vector('tampered t', { header: `t=${T + 1},v1=${digest}` }, 'signature_mismatch'),
  vector('wrong secret', { secret: 'whsec_other' }, 'signature_mismatch'),
  vector('secret without its whsec_ prefix', { secret: SECRET.slice('whsec_'.length) }, 'signature_mismatch'),
  vector('re-serialized JSON body', { payload: JSON.stringify(JSON.parse(PAYLOAD), null, 2) }, 'signature_mismatch'),
  vector(
    'non-UTF-8 body decoded to a string first',
    { payload: new TextDecoder().decode(NON_UTF8), header: `t=${T},v1=${sign(SECRET, T, NON_UTF8)}` },
    'signature_mismatch',
  ),
  vector('no secret of the list matches', { secret: ['whsec_a', 'whsec_b'] }, 'signature_mismatch'),
  vector('digest of another body', { header: `t=${T},v1=${sign(SECRET, T, UNICODE)}` }, 'signature_mismatch'),

  // invalid_payload
  vector('parsed object body', { payload: JSON.parse(PAYLOAD) as never }, 'invalid_payload'),
  vector('null body', { payload: null as never }, 'invalid_payload'),
  vector('undefined body', { payload: undefined as never }, 'invalid_payload'),
  vector('number body', { payload: 42 as never }, 'invalid_payload'),
  vector('array body', { payload: [1, 2] as never }, 'invalid_payload'),

  // invalid_secret
  vector('empty secret', { secret: '' }, 'invalid_secret'),
  vector('empty secret list', { secret: [] }, 'invalid_secret'),
  vector('list with an empty secret', { secret: [SECRET, ''] }, 'invalid_secret'),
  vector('number secret', { secret: 42 as never }, 'invalid_secret'),
  vector('missing secret', { secret: undefined as never }, 'invalid_secret'),

  // Bad options are the caller's bug: a TypeError, never a skipped timestamp check.
  vector('invalid Date as now', { now: new Date('not a date') }, 'TypeError'),
  vector('NaN now', { now: Number.NaN }, 'TypeError'),
  vector('NaN tolerance', { now: T + 10_000, toleranceSeconds: Number.NaN }, 'TypeError'),
  vector('negative tolerance', { toleranceSeconds: -1 }, 'TypeError'),

  // Several faults at once: every implementation reports the same one (payload, secret, header, then timestamp).
  vector('bad body and bad header: the body is reported', { payload: null as never, header: 'garbage' }, 'invalid_payload'),
  vector('bad secret and no header: the secret is reported', { secret: '', header: undefined }, 'invalid_secret'),
  vector(
    'malformed and expired: malformed is reported',
    { header: `t=${T},v1=${digest.slice(1)}`, now: T + 10_000 },
    'malformed_header',
  ),
  vector('expired and tampered: expired is reported', { payload: 'tampered', now: T + 10_000 }, 'timestamp_out_of_tolerance'),
  ...HEADERS_VECTORS,
];

export interface SignVector {
  readonly name: string;
  readonly params: GenerateSignatureHeaderParams;
  /** The exact header, or the failure. */
  readonly expected: string | Exclude<Expected, 'valid'>;
}

export const SIGN_VECTORS: readonly SignVector[] = [
  { name: 'string body', params: { payload: PAYLOAD, secret: SECRET, timestamp: T }, expected: valid },
  { name: 'Buffer body', params: { payload: Buffer.from(PAYLOAD), secret: SECRET, timestamp: T }, expected: valid },
  { name: 'ArrayBuffer body', params: { payload: bytes.buffer.slice(0), secret: SECRET, timestamp: T }, expected: valid },
  {
    name: 'non-UTF-8 bytes',
    params: { payload: NON_UTF8, secret: SECRET, timestamp: T },
    expected: `t=${T},v1=${sign(SECRET, T, NON_UTF8)}`,
  },
  {
    name: 'lone surrogate',
    params: { payload: LONE_SURROGATE, secret: SECRET, timestamp: T },
    expected: `t=${T},v1=${sign(SECRET, T, LONE_SURROGATE)}`,
  },
  {
    name: 'non-ASCII secret',
    params: { payload: PAYLOAD, secret: UNICODE_SECRET, timestamp: T },
    expected: `t=${T},v1=${sign(UNICODE_SECRET, T, PAYLOAD)}`,
  },
  {
    name: 'rotation: one v1 per secret, in order',
    params: { payload: PAYLOAD, secret: [ROTATED, SECRET], timestamp: T },
    expected: `t=${T},v1=${sign(ROTATED, T, PAYLOAD)},v1=${digest}`,
  },
  {
    name: 'Date timestamp, rounded down',
    params: { payload: PAYLOAD, secret: SECRET, timestamp: new Date((T + 42) * 1000 + 999) },
    expected: `t=${T + 42},v1=${sign(SECRET, T + 42, PAYLOAD)}`,
  },
  { name: 'empty secret list', params: { payload: PAYLOAD, secret: [], timestamp: T }, expected: 'invalid_secret' },
  { name: 'parsed object body', params: { payload: {} as never, secret: SECRET, timestamp: T }, expected: 'invalid_payload' },
  { name: 'NaN timestamp', params: { payload: PAYLOAD, secret: SECRET, timestamp: Number.NaN }, expected: 'TypeError' },
  {
    name: 'invalid Date timestamp',
    params: { payload: PAYLOAD, secret: SECRET, timestamp: new Date('nope') },
    expected: 'TypeError',
  },
];

export interface WebhookHeadersVector {
  readonly name: string;
  readonly params: GenerateWebhookHeadersParams;
  /** The exact headers, or the failure. */
  readonly expected: Record<string, string> | Exclude<Expected, 'valid'>;
}

const cardrailHeader = (secrets: readonly string[]) => ({ 'Cardrail-Signature': deliveryHeaders(secrets)['cardrail-signature'] });
const standardHeaders = (secrets: readonly string[]) => {
  const { 'cardrail-signature': _, ...rest } = deliveryHeaders(secrets);
  return rest;
};

export const WEBHOOK_HEADERS_VECTORS: readonly WebhookHeadersVector[] = [
  {
    name: 'both schemes, one secret',
    params: { payload: PAYLOAD, secret: STANDARD_SECRET, timestamp: T, id: MESSAGE_ID },
    expected: { ...cardrailHeader([STANDARD_SECRET]), ...standardHeaders([STANDARD_SECRET]) },
  },
  {
    name: 'both schemes during a rotation: one signature per secret in each, in order',
    params: { payload: Buffer.from(PAYLOAD), secret: [STANDARD_ROTATED, STANDARD_SECRET], timestamp: T, id: MESSAGE_ID },
    expected: {
      ...cardrailHeader([STANDARD_ROTATED, STANDARD_SECRET]),
      ...standardHeaders([STANDARD_ROTATED, STANDARD_SECRET]),
    },
  },
  {
    name: 'a URL-safe secret issued before the standard alphabet',
    params: { payload: PAYLOAD, secret: LEGACY_SECRET, timestamp: T, id: MESSAGE_ID },
    expected: { ...cardrailHeader([LEGACY_SECRET]), ...standardHeaders([LEGACY_SECRET]) },
  },
  {
    name: 'standardWebhooks: false: Cardrail-Signature alone',
    params: { payload: PAYLOAD, secret: SECRET, timestamp: T, standardWebhooks: false },
    expected: { 'Cardrail-Signature': valid },
  },
  {
    name: 'an id with a space',
    params: { payload: PAYLOAD, secret: STANDARD_SECRET, timestamp: T, id: 'msg 1' },
    expected: 'TypeError',
  },
  {
    name: 'a secret that is not base64',
    params: { payload: PAYLOAD, secret: SECRET, timestamp: T, id: MESSAGE_ID },
    expected: 'invalid_secret',
  },
  {
    name: 'a parsed body',
    params: { payload: {} as never, secret: STANDARD_SECRET, timestamp: T },
    expected: 'invalid_payload',
  },
];

export interface EventVector {
  readonly name: string;
  readonly params: VerifySignatureParams;
  /** The parsed event, or the failure. */
  readonly expected: { event: unknown } | Exclude<Expected, 'valid'>;
}

function signedEvent(name: string, body: string | Uint8Array, expected: EventVector['expected']): EventVector {
  return { name, params: { payload: body, header: `t=${T},v1=${sign(SECRET, T, body)}`, secret: SECRET, now: T }, expected };
}

export const EVENT_VECTORS: readonly EventVector[] = [
  signedEvent('card.frozen event, string body', PAYLOAD, { event: JSON.parse(PAYLOAD) }),
  signedEvent('card.frozen event, byte body', bytes, { event: JSON.parse(PAYLOAD) }),
  signedEvent('multi-byte UTF-8 body', new TextEncoder().encode(UNICODE), { event: JSON.parse(UNICODE) }),
  signedEvent('a type this SDK does not know is passed through', '{"id":"evt_9","type":"card.teleported","data":{}}', {
    event: { id: 'evt_9', type: 'card.teleported', data: {} },
  }),
  signedEvent('signed body that is not JSON', 'not json', 'invalid_json'),
  signedEvent('signed JSON without a type', '{"id":"evt_1"}', 'invalid_json'),
  signedEvent('signed JSON array', '[]', 'invalid_json'),
  signedEvent('signed non-UTF-8 bytes', NON_UTF8, 'invalid_json'),
  {
    name: 'bad signature: verification comes before parsing',
    params: { ...base, payload: 'not json' },
    expected: 'signature_mismatch',
  },
];
