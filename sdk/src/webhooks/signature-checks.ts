// Every check of a signed delivery that does not depend on its scheme: the raw body, the secrets, the time and its
// tolerance, the constant-time comparison of digests, and the verdict when a delivery carries both schemes. Both
// builds apply them in the same order, so they throw the same error for the same bad input; only the HMAC differs
// (node-crypto.ts, web-crypto.ts). Each scheme's own part (its headers' grammar, what it signs before the body, how
// its secret becomes a key, how it writes a digest) is in schemes.ts; delivery.ts puts them together.
import { WebhookVerificationError } from '../errors.js';

/** The exact bytes of the request body, as received: a string, or any byte view or buffer (Node's Buffer included). */
export type RawPayload = string | ArrayBufferView | ArrayBuffer;

/** One signing secret or several (during rotation the old and new secret both sign). */
export type WebhookSecret = string | readonly string[];

/** A point in time as a Date or as unix seconds (the unit of the header's `t=`). */
export type UnixTime = Date | number;

/** How far the signature's timestamp may be from now, in either direction, by default. */
export const DEFAULT_TOLERANCE_SECONDS = 300;

/**
 * The signature schemes a delivery carries: `Cardrail-Signature` (hex HMAC of `<t>.<body>`, the whole secret string
 * as the key) and Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature`: base64 HMAC of
 * `<id>.<t>.<body>`, the base64-decoded secret as the key).
 */
export type SignatureScheme = 'Cardrail-Signature' | 'Standard Webhooks';

/** What is signed, under which secrets and by which scheme. */
export interface SignedContent {
  /** The body as a string (left unencoded, so it is encoded once, where it is used) or a view of its bytes. */
  readonly payload: string | Uint8Array;
  readonly secrets: readonly string[];
  /** What the scheme signs before the body (`<t>.` for Cardrail-Signature, `<id>.<t>.` for Standard Webhooks). */
  readonly prefix: string;
  readonly scheme: SignatureScheme;
}

/** One scheme's signatures of a delivery that passed every check but the signatures themselves. */
export interface CheckedDelivery extends SignedContent {
  /** The digests the headers carry, as the scheme writes them (lower-case hex, or base64). */
  readonly signatures: readonly string[];
  /** Unix seconds the sender signed at. */
  readonly timestamp: number;
}

/** HMAC-SHA256 of `prefix` + payload under one secret, written as the scheme writes it: node:crypto's, synchronous. */
export type Digest = (secret: string, prefix: string, payload: string | Uint8Array, scheme: SignatureScheme) => string;

/** HMAC-SHA256 of the content under each of its secrets, in order, as the scheme writes it: Web Crypto's, asynchronous. */
export type Digests = (content: SignedContent) => Promise<string[]>;

const RAW_BODY_HELP =
  'Signatures cover the raw request body: pass it exactly as received (a string, Uint8Array/Buffer or ArrayBuffer), ' +
  'not a parsed object, whose re-serialized JSON has other bytes. node:http: join the request chunks in a Buffer; ' +
  "Express: express.raw({ type: 'application/json' }) on the webhook route; Fastify: a content-type parser with " +
  "parseAs: 'buffer'; Hono: await c.req.text(); Next.js route handlers, Workers: await request.text(). See the " +
  '@cardrail/sdk README, section "Raw request body".';

/** The body as a string or a view of its bytes; a parsed object (the raw-body trap of every framework) is refused. */
export function checkedRawPayload(payload: unknown): string | Uint8Array {
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

/** Secrets as a non-empty list of non-empty strings. */
export function secretList(secret: unknown): readonly string[] {
  const secrets: unknown[] = Array.isArray(secret) ? secret : [secret];
  if (secrets.length > 0 && secrets.every((entry) => typeof entry === 'string' && entry !== '')) return secrets as string[];
  throw new WebhookVerificationError(
    'invalid_secret',
    'The webhook secret must be a non-empty string or a non-empty list of non-empty strings.',
  );
}

export function toUnixSeconds(time: UnixTime | undefined): number {
  if (time === undefined) return Math.floor(Date.now() / 1000);
  const seconds = time instanceof Date ? time.getTime() / 1000 : time;
  // An invalid Date or NaN would make every tolerance comparison false, silently accepting any timestamp.
  if (!Number.isFinite(seconds)) throw new TypeError(`Expected a valid Date or unix seconds, got ${String(time)}.`);
  return Math.floor(seconds);
}

/** Refuses a signing time further from now than the tolerance, in either direction. */
export function checkTimestamp(timestamp: number, options: { toleranceSeconds?: number; now?: UnixTime }): void {
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  // NaN would make the comparison below false and accept any timestamp.
  if (Number.isNaN(tolerance) || tolerance < 0) throw new TypeError(`toleranceSeconds must be a number >= 0, got ${tolerance}.`);
  const now = toUnixSeconds(options.now);
  if (Math.abs(now - timestamp) > tolerance) {
    throw new WebhookVerificationError(
      'timestamp_out_of_tolerance',
      `The signature timestamp ${timestamp} is ${Math.abs(now - timestamp)} s ${timestamp < now ? 'old' : 'in the future'}; the tolerance is ${tolerance} s.`,
      { timestamp, now, toleranceSeconds: tolerance },
    );
  }
}

/**
 * True when `digest` (our HMAC under one secret) equals one of the header's signatures. Every entry is compared, and
 * each comparison runs to the end instead of stopping at the first difference, so the time taken does not tell an
 * attacker how many leading characters of a forged signature were right. Lengths are public (64 hex digits, 44
 * base64 characters).
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

/**
 * Accepts a delivery when every scheme it carries has a matching signature. One scheme failing while the other holds
 * means the two were not made by one sender with one secret (a proxy that re-signed one of them, headers of two
 * deliveries mixed): refused as `conflicting_headers`, naming which held.
 */
function verdict(deliveries: readonly CheckedDelivery[], matched: readonly boolean[]): string | Uint8Array {
  const held = matched.indexOf(true);
  if (held !== -1 && !matched.includes(false)) return (deliveries[0] as CheckedDelivery).payload;
  if (held === -1) {
    throw new WebhookVerificationError(
      'signature_mismatch',
      `No ${deliveries.map(({ scheme }) => scheme).join(' or ')} signature matches the payload and secret. Check the ` +
        'secret and that the payload is the unmodified raw body.',
    );
  }
  throw conflictingHeaders(`${(deliveries[held] as CheckedDelivery).scheme} matches the secret and the other scheme does not`);
}

/** The two schemes of a delivery disagree: they were not signed together by one sender. */
export function conflictingHeaders(how: string): WebhookVerificationError {
  return new WebhookVerificationError(
    'conflicting_headers',
    `The delivery's two signature schemes disagree (${how}), so one sender did not make both. If something re-signs ` +
      'one of them on the way, verify the scheme you trust alone.',
  );
}

/** The payload of checked deliveries once their signatures hold, on a synchronous HMAC. */
export function verifiedPayloadSync(digest: Digest, deliveries: readonly CheckedDelivery[]): string | Uint8Array {
  const matched: boolean[] = [];
  for (const { payload, secrets, prefix, scheme, signatures } of deliveries) {
    let match = false;
    // The first matching secret ends the search.
    for (const secret of secrets) {
      match = matchesAnySignature(digest(secret, prefix, payload, scheme), signatures);
      if (match) break;
    }
    matched.push(match);
  }
  return verdict(deliveries, matched);
}

/** The payload of checked deliveries once their signatures hold, on an asynchronous HMAC: every secret in one trip. */
export async function verifiedPayload(digests: Digests, deliveries: readonly CheckedDelivery[]): Promise<string | Uint8Array> {
  const matched = await Promise.all(
    deliveries.map(async (delivery) =>
      (await digests(delivery)).some((digest) => matchesAnySignature(digest, delivery.signatures)),
    ),
  );
  return verdict(deliveries, matched);
}
