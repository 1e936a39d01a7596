// Every check of a signed delivery that does not depend on its scheme: the raw body, the secrets, the time and its
// tolerance, the constant-time comparison of digests, and the verdict when a delivery carries both schemes.
import { WebhookVerificationError } from '../errors.js';
import type { SignatureScheme, UnixTime } from './types.js';

/** How far the signature's timestamp may be from now, in either direction, by default. */
export const DEFAULT_TOLERANCE_SECONDS = 300;

/** What an HMAC provider signs: `prefix` (`<t>.`, or `<id>.<t>.`) then the body, under each secret, by `scheme`. */
export interface SignedContent {
  /** The body as a string (encoded once, where it is used) or a view of its bytes. */
  readonly payload: string | Uint8Array;
  readonly secrets: readonly string[];
  readonly prefix: string;
  readonly scheme: SignatureScheme;
}

/** One scheme's part of a delivery that passed every check but its signatures (hex or base64, as the headers had them). */
export interface CheckedDelivery extends SignedContent {
  readonly signatures: readonly string[];
  readonly timestamp: number;
}

const RAW_BODY_HELP =
  'Signatures cover the raw request body: pass it exactly as received (a string, Uint8Array/Buffer or ArrayBuffer), ' +
  'not a parsed object, whose re-serialized JSON has other bytes. node:http: join the request chunks in a Buffer; ' +
  "Express: express.raw({ type: 'application/json' }) on the webhook route; Fastify: a content-type parser with " +
  "parseAs: 'buffer'; Hono: await c.req.text(); Next.js route handlers, Workers: await request.text(). See the " +
  '@cardrail/sdk README, section "Raw request body".';

/** The body as a string or a view of its bytes; a parsed object (the raw-body trap of every framework) is refused. */
export function checkedRawPayload(payload: unknown): string | Uint8Array {
  // Strings and byte arrays (Node's Buffer too) are used as they are; other realms' buffers (jsdom, vm) are recognised.
  if (typeof payload === 'string' || payload instanceof Uint8Array) return payload;
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
 * Whether `digest` (ours, under one secret) equals one of the header's signatures. Each comparison runs to the end
 * instead of stopping at the first difference, so its time does not tell how much of a forged signature was right.
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
 * The payload, once each scheme has a signature matching the digest of one secret (`digests`: per delivery, per
 * secret). One scheme holding and the other not means one sender did not make both (a proxy re-signed one, headers of
 * two deliveries were mixed): `conflicting_headers`, naming which held.
 */
export function verifiedPayload(
  deliveries: readonly CheckedDelivery[],
  digests: readonly (readonly string[])[],
): string | Uint8Array {
  const matched = deliveries.map(({ signatures }, index) =>
    (digests[index] as readonly string[]).some((digest) => matchesAnySignature(digest, signatures)),
  );
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
