// What a signed delivery is and every check that does not need the HMAC: the raw body, the secrets, the time and its
// tolerance, the signature header's grammar, and the constant-time comparison of digests. Both builds apply them in
// the same order, so they throw the same error for the same bad input; only the HMAC differs (node-crypto-hmac.ts,
// web-crypto-hmac.ts).
//
// Everything above "The Cardrail-Signature scheme" holds for any scheme that signs a prefix and the body with
// HMAC-SHA256 under a time tolerance; a scheme's own part is its header's grammar and what it puts in the prefix.
import { WebhookVerificationError } from '../errors.js';

/** The exact bytes of the request body, as received: a string, or any byte view or buffer (Node's Buffer included). */
export type RawPayload = string | ArrayBufferView | ArrayBuffer;

/** One signing secret or several (during rotation the old and new secret both sign). */
export type WebhookSecret = string | readonly string[];

/** A point in time as a Date or as unix seconds (the unit of the header's `t=`). */
export type UnixTime = Date | number;

/** How far `t=` may be from now, in either direction, by default. */
export const DEFAULT_TOLERANCE_SECONDS = 300;

/** What `verifySignature` and `constructEvent` check: the raw body, its signature header, the secret(s). */
export interface VerifySignatureParams {
  /** The raw request body exactly as received; a parsed object is refused. */
  payload: RawPayload;
  /** Value of the `Cardrail-Signature` request header. */
  header: string | null | undefined;
  /** The endpoint's signing secret, or several (any one matching suffices) while rotating. */
  secret: WebhookSecret;
  /** Allowed distance between `t=` and now, both directions. Default 300. */
  toleranceSeconds?: number;
  /** The current time, unix seconds or a Date. Default: the system clock. */
  now?: UnixTime;
}

/** What `generateSignatureHeader` signs, with which secret(s) and at which time. */
export interface GenerateSignatureHeaderParams {
  /** The exact body that will be sent. */
  payload: RawPayload;
  /** A secret, or several during rotation: one `v1=` entry per secret, in this order. */
  secret: WebhookSecret;
  /** When the delivery is signed; unix seconds or a Date. Default: now. */
  timestamp?: UnixTime;
}

/** What is signed, under which secrets: HMAC-SHA256 of `prefix` + `payload`, the whole secret string as the key. */
interface SignedContent {
  /** The body as a string (left unencoded, so it is encoded once, where it is used) or a view of its bytes. */
  readonly payload: string | Uint8Array;
  readonly secrets: readonly string[];
  /** What the scheme signs before the body (`<t>.` for Cardrail-Signature). */
  readonly prefix: string;
}

/** A delivery that passed every check but the signature itself, with the lower-case hex digests its header carries. */
export interface CheckedDelivery extends SignedContent {
  readonly signatures: readonly string[];
}

/** HMAC-SHA256 of `prefix` + payload under one secret, as lower-case hex: node:crypto's, synchronous. */
export type HexDigest = (secret: string, prefix: string, payload: string | Uint8Array) => string;

/** HMAC-SHA256 of the content under each of its secrets, in order, as lower-case hex: Web Crypto's, asynchronous. */
export type HexDigests = (content: SignedContent) => Promise<string[]>;

const RAW_BODY_HELP =
  'Signatures cover the raw request body: pass it exactly as received (a string, Uint8Array/Buffer or ArrayBuffer), ' +
  'not a parsed object, whose re-serialized JSON has other bytes. node:http: join the request chunks in a Buffer; ' +
  "Express: express.raw({ type: 'application/json' }) on the webhook route; Next.js route handler: await " +
  'request.text(); Hono: await c.req.text(). See the @cardrail/sdk README, section "Raw request body".';

function checkedRawPayload(payload: unknown): string | Uint8Array {
  // Strings and byte arrays (Node's Buffer is one) are used as they are: no wrapper, no copy.
  if (typeof payload === 'string' || payload instanceof Uint8Array) return payload;
  // ArrayBuffer.isView and the toString tag also recognise buffers from another realm (jsdom, vm, iframes).
  if (ArrayBuffer.isView(payload)) return new Uint8Array(payload.buffer, payload.byteOffset, payload.byteLength);
  if (Object.prototype.toString.call(payload) === '[object ArrayBuffer]') return new Uint8Array(payload as ArrayBuffer);
  const received = payload === null ? 'null' : Array.isArray(payload) ? 'an array' : `a value of type ${typeof payload}`;
  throw new WebhookVerificationError(
    'invalid_payload',
    `Expected the raw request body but received ${received}. ${RAW_BODY_HELP}`,
  );
}

/** Secrets as a non-empty list; the whole string, `whsec_` prefix included, is the key. */
function secretList(secret: unknown): readonly string[] {
  const secrets: unknown[] = Array.isArray(secret) ? secret : [secret];
  if (secrets.length > 0 && secrets.every((entry) => typeof entry === 'string' && entry !== '')) return secrets as string[];
  throw new WebhookVerificationError(
    'invalid_secret',
    'The webhook secret must be a non-empty string or a non-empty list of non-empty strings.',
  );
}

function toUnixSeconds(time: UnixTime | undefined): number {
  if (time === undefined) return Math.floor(Date.now() / 1000);
  const seconds = time instanceof Date ? time.getTime() / 1000 : time;
  // An invalid Date or NaN would make every tolerance comparison false, silently accepting any timestamp.
  if (!Number.isFinite(seconds)) throw new TypeError(`Expected a valid Date or unix seconds, got ${String(time)}.`);
  return Math.floor(seconds);
}

/**
 * True when `digest` (our HMAC under one secret) equals one of the header's signatures. Every entry is compared, and
 * each comparison runs to the end instead of stopping at the first difference, so the time taken does not tell an
 * attacker how many leading characters of a forged signature were right. Lengths are public (64 hex digits).
 */
function matchesAnySignature(digest: string, signatures: readonly string[]): boolean {
  let matched = false;
  for (const signature of signatures) {
    if (signature.length !== digest.length) continue;
    let difference = 0;
    for (let index = 0; index < digest.length; index += 1) difference |= digest.charCodeAt(index) ^ signature.charCodeAt(index);
    matched = difference === 0 || matched;
  }
  return matched;
}

function signatureMismatch(): WebhookVerificationError {
  return new WebhookVerificationError(
    'signature_mismatch',
    'No v1 signature matches the payload and secret. Check the secret and that the payload is the unmodified raw body.',
  );
}

/** The payload of a checked delivery once a signature matches, on a synchronous HMAC: the first match ends the search. */
export function verifiedPayloadSync(hexDigest: HexDigest, delivery: CheckedDelivery): string | Uint8Array {
  const { payload, secrets, prefix, signatures } = delivery;
  for (const secret of secrets) {
    if (matchesAnySignature(hexDigest(secret, prefix, payload), signatures)) return payload;
  }
  throw signatureMismatch();
}

/** The payload of a checked delivery once a signature matches, on an asynchronous HMAC: every secret in one trip. */
export async function verifiedPayload(hexDigests: HexDigests, delivery: CheckedDelivery): Promise<string | Uint8Array> {
  for (const digest of await hexDigests(delivery)) {
    if (matchesAnySignature(digest, delivery.signatures)) return delivery.payload;
  }
  throw signatureMismatch();
}

// ---- The Cardrail-Signature scheme: `Cardrail-Signature: t=<unix seconds>,v1=<hex>[,v1=<hex>...]` -------------------

/** Name of the HTTP header that carries the webhook signature. */
export const SIGNATURE_HEADER = 'Cardrail-Signature';

/** A `Cardrail-Signature` header, parsed: `t=<unix seconds>,v1=<hex>[,v1=<hex>]`. */
export interface ParsedSignatureHeader {
  /** Unix seconds the sender put in `t=`. */
  timestamp: number;
  /** Every non-empty `v1=` digest, lower-cased, in header order. */
  signatures: string[];
}

const DIGITS = /^\d+$/;
const SHA256_HEX = /^[0-9a-f]{64}$/;

/**
 * Parses the header's grammar: comma-separated `key=value` elements, exactly one `t=<unix seconds, digits only>` and
 * one or more `v1=<64 hex digits>` (HMAC-SHA256 of `<t>.` + body), in any order. Whitespace around elements and
 * around `=` is ignored, empty elements are skipped, hex is case-insensitive, and unknown schemes (`v0=`, a future
 * `v2=`) and empty `v1=` values are skipped so that senders can add schemes before receivers know them. Malformed:
 * an element without a key, a missing, repeated, non-numeric or unsafe-integer `t`, a `v1` that is not 64 hex digits.
 * No `v1` at all is `missing_signature`; no header or a blank one is `missing_header`.
 */
export function parseSignatureHeader(header: string | null | undefined): ParsedSignatureHeader {
  if (header == null || header.trim() === '') {
    throw new WebhookVerificationError('missing_header', `No ${SIGNATURE_HEADER} header was found on the request.`);
  }
  let timestamp: number | undefined;
  const signatures: string[] = [];
  for (const element of header.split(',')) {
    const part = element.trim();
    if (part === '') continue;
    const separator = part.indexOf('=');
    if (separator <= 0) throw malformed(`element "${part}" is not a key=value pair`);
    const scheme = part.slice(0, separator).trim();
    const value = part.slice(separator + 1).trim();
    if (scheme === 't') {
      if (timestamp !== undefined) throw malformed('more than one t= element');
      if (!DIGITS.test(value)) throw malformed(`t= must be unix seconds, got "${value}"`);
      timestamp = Number(value);
      if (!Number.isSafeInteger(timestamp)) throw malformed(`t= is out of range: "${value}"`);
    } else if (scheme === 'v1') {
      if (value === '') continue;
      const digest = value.toLowerCase();
      if (!SHA256_HEX.test(digest)) throw malformed('v1= must be 64 hexadecimal characters');
      signatures.push(digest);
    }
    // Other schemes are skipped on purpose: a sender may add new ones before receivers understand them.
  }
  if (timestamp === undefined) throw malformed('no t= element');
  if (signatures.length === 0) {
    throw new WebhookVerificationError('missing_signature', `The ${SIGNATURE_HEADER} header has no v1 signature.`);
  }
  return { timestamp, signatures };
}

function malformed(reason: string): WebhookVerificationError {
  return new WebhookVerificationError('malformed_header', `Malformed ${SIGNATURE_HEADER} header: ${reason}.`);
}

function formatSignatureHeader(timestamp: number, signatures: readonly string[]): string {
  return [`t=${timestamp}`, ...signatures.map((signature) => `v1=${signature}`)].join(',');
}

/** A delivery's content and signatures once the payload, the secrets, the header and the timestamp have passed. */
export function checkedDelivery(params: VerifySignatureParams): CheckedDelivery {
  const payload = checkedRawPayload(params.payload);
  const secrets = secretList(params.secret);
  const { timestamp, signatures } = parseSignatureHeader(params.header);

  const tolerance = params.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  // NaN would make the comparison below false and accept any timestamp.
  if (Number.isNaN(tolerance) || tolerance < 0) throw new TypeError(`toleranceSeconds must be a number >= 0, got ${tolerance}.`);
  const now = toUnixSeconds(params.now);
  if (Math.abs(now - timestamp) > tolerance) {
    throw new WebhookVerificationError(
      'timestamp_out_of_tolerance',
      `The signature timestamp ${timestamp} is ${Math.abs(now - timestamp)} s ${timestamp < now ? 'old' : 'in the future'}; the tolerance is ${tolerance} s.`,
      { timestamp, now, toleranceSeconds: tolerance },
    );
  }
  return { payload, secrets, prefix: `${timestamp}.`, signatures };
}

/** What a signing call signs, once its parameters have passed; `timestamp` goes into the header. */
function signingInput(params: GenerateSignatureHeaderParams): SignedContent & { readonly timestamp: number } {
  const secrets = secretList(params.secret);
  const timestamp = toUnixSeconds(params.timestamp);
  return { payload: checkedRawPayload(params.payload), secrets, prefix: `${timestamp}.`, timestamp };
}

/** The `Cardrail-Signature` value for a payload, on a synchronous HMAC. */
export function signatureHeaderSync(hexDigest: HexDigest, params: GenerateSignatureHeaderParams): string {
  const { payload, secrets, prefix, timestamp } = signingInput(params);
  return formatSignatureHeader(
    timestamp,
    secrets.map((secret) => hexDigest(secret, prefix, payload)),
  );
}

/** The `Cardrail-Signature` value for a payload, on an asynchronous HMAC. */
export async function signatureHeader(hexDigests: HexDigests, params: GenerateSignatureHeaderParams): Promise<string> {
  const content = signingInput(params);
  return formatSignatureHeader(content.timestamp, await hexDigests(content));
}
