// What is checked whatever the scheme: the raw body, the secrets, the time, and the signatures (in constant time).
import { WebhookVerificationError } from '../errors.js';
import type { SignatureScheme, UnixTime } from './types.js';

/** The delivery is refused, for the reason `code` names. */
export const refusal = (...args: ConstructorParameters<typeof WebhookVerificationError>) => new WebhookVerificationError(...args);
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
/** One scheme's part of a delivery, checked: what it signs, and what its headers carry (no signatures yet when signing). */
export interface DeliveryPart extends SignedContent {
  readonly timestamp: number;
  readonly signatures: readonly string[];
  /** Standard Webhooks' message id. */
  readonly id?: string;
}

const RAW_BODY_HELP =
  'Signatures cover the raw request body: pass it exactly as received (a string, Uint8Array/Buffer or ArrayBuffer), ' +
  'not a parsed object, whose re-serialized JSON has other bytes. node:http: join the request chunks in a Buffer; ' +
  "Express: express.raw({ type: 'application/json' }) on the webhook route; Fastify: a content-type parser with " +
  "parseAs: 'buffer'; Hono: await c.req.text(); Next.js route handlers, Workers: await request.text(). See the " +
  '@cardrail/sdk README, section "Raw request body".';

/** The body as a string or a view of its bytes, uncopied; a parsed object (every framework's raw-body trap) is refused. */
export function checkedRawPayload(payload: unknown): string | Uint8Array {
  if (typeof payload === 'string' || payload instanceof Uint8Array) return payload;
  // Also buffers of another realm (jsdom, vm), which fail instanceof.
  if (ArrayBuffer.isView(payload)) return new Uint8Array(payload.buffer, payload.byteOffset, payload.byteLength);
  if (Object.prototype.toString.call(payload) === '[object ArrayBuffer]') return new Uint8Array(payload as ArrayBuffer);
  const received = payload === null ? 'null' : Array.isArray(payload) ? 'an array' : `a value of type ${typeof payload}`;
  throw refusal('invalid_payload', `Expected the raw request body but received ${received}. ${RAW_BODY_HELP}`);
}

export function secretList(secret: unknown): readonly string[] {
  const secrets: unknown[] = Array.isArray(secret) ? secret : [secret];
  if (secrets.length > 0 && secrets.every((entry) => typeof entry === 'string' && entry !== '')) return secrets as string[];
  throw refusal('invalid_secret', 'The webhook secret must be a non-empty string or a non-empty list of non-empty strings.');
}

export function toUnixSeconds(time: UnixTime | undefined): number {
  if (time === undefined) return Math.floor(Date.now() / 1000);
  const seconds = time instanceof Date ? time.getTime() / 1000 : time;
  // An invalid Date or NaN would make every tolerance comparison false, silently accepting any timestamp.
  if (!Number.isFinite(seconds)) throw new TypeError(`Expected a valid Date or unix seconds, got ${String(time)}.`);
  return Math.floor(seconds);
}

export function checkTimestamp(timestamp: number, options: { toleranceSeconds?: number; now?: UnixTime }): void {
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  if (Number.isNaN(tolerance) || tolerance < 0) throw new TypeError(`toleranceSeconds must be a number >= 0, got ${tolerance}.`);
  const now = toUnixSeconds(options.now);
  const distance = Math.abs(now - timestamp);
  if (distance <= tolerance) return;
  const when = `${distance} s ${timestamp < now ? 'old' : 'in the future'}; the tolerance is ${tolerance} s`;
  const details = { timestamp, now, toleranceSeconds: tolerance };
  throw refusal('timestamp_out_of_tolerance', `The signature timestamp ${timestamp} is ${when}.`, details);
}

/** Each comparison runs to the end, so that its time does not tell how much of a forged signature was right. */
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
 * The payload, once each scheme has a signature matching one secret's digest (`digests`: per part, per secret). One
 * holding and not the other means one sender did not make both (a proxy re-signed one, or two deliveries were mixed).
 */
export function verifiedPayload(parts: readonly DeliveryPart[], digests: readonly (readonly string[])[]) {
  const held = parts.map(({ signatures }, i) => digests[i]?.some((digest) => matchesAnySignature(digest, signatures)));
  if (held.every(Boolean)) return (parts[0] as DeliveryPart).payload;
  const holding = parts.find((_, i) => held[i]);
  if (holding) throw conflictingHeaders(`${holding.scheme} matches the secret and the other scheme does not`);
  const schemes = parts.map(({ scheme }) => scheme).join(' or ');
  const advice = 'Check the secret and that the payload is the unmodified raw body.';
  throw refusal('signature_mismatch', `No ${schemes} signature matches the payload and secret. ${advice}`);
}

export function conflictingHeaders(how: string): WebhookVerificationError {
  const disagree = `The delivery's two signature schemes disagree (${how}), so one sender did not make both`;
  const fix = 'If something re-signs one of them on the way, verify the scheme you trust alone.';
  return refusal('conflicting_headers', `${disagree}. ${fix}`);
}
