import { WebhookVerificationError } from '../errors.js';
import { hexDigestsEqual } from './hex.js';
import { checkedRawPayload, type RawPayload } from './raw-payload.js';
import { secretList, type WebhookSecret } from './secret.js';
import { parseSignatureHeader } from './signature-header.js';
import { toUnixSeconds, type UnixTime } from './timestamp.js';

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

/** A delivery that passed every check but the signature itself, which needs the runtime's HMAC. */
export interface CheckedDelivery {
  readonly payload: string | Uint8Array;
  readonly secrets: readonly string[];
  readonly timestamp: number;
  /** Lower-case hex `v1=` digests, in header order. */
  readonly signatures: readonly string[];
}

/**
 * Every check that does not need the HMAC, in the order every implementation applies them (payload, secret, header,
 * timestamp), so that each runtime's build throws the same error for the same bad input.
 */
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
  return { payload, secrets, timestamp, signatures };
}

/** True when `digest` (our HMAC under one secret) equals one of the header's `v1` entries; every entry is compared. */
export function matchesAnySignature(digest: string, signatures: readonly string[]): boolean {
  let matched = false;
  for (const signature of signatures) matched = hexDigestsEqual(digest, signature) || matched;
  return matched;
}

export function signatureMismatch(): WebhookVerificationError {
  return new WebhookVerificationError(
    'signature_mismatch',
    'No v1 signature matches the payload and secret. Check the secret and that the payload is the unmodified raw body.',
  );
}
