// One set of webhook test vectors for every implementation (node:crypto and Web Crypto, synchronous and asynchronous,
// sources and built files): headers, bodies, secrets and clocks, valid and each failure kind. Signatures are made
// here with node:crypto's createHmac, independently of the SDK (no SDK parsing, encoding or formatting); KNOWN_ANSWERS
// pins that helper to fixed digests, so a change of the signing scheme cannot slip through both sides at once.
import { createHmac } from 'node:crypto';
import type { WebhookVerificationErrorCode } from '../../src/errors.js';
import type { GenerateSignatureHeaderParams, VerifySignatureParams } from '../../src/webhooks/index.js';

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
