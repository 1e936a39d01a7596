import { WebhookVerificationError } from '../errors.js';
import { digestsEqual, hexToBytes } from './digest-bytes.js';
import { hmacSha256, secretList, signedContent, type WebhookSecret } from './hmac.js';
import { checkedRawPayload, type RawPayload } from './raw-payload.js';
import { parseSignatureHeader } from './signature-header.js';
import { toUnixSeconds, type UnixTime } from './timestamp.js';

/** How far `t=` may be from now, in either direction, by default. */
export const DEFAULT_TOLERANCE_SECONDS = 300;

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

/** Resolves when one `v1` signature matches one secret within the tolerance; otherwise rejects with WebhookVerificationError. */
export async function verifySignature(params: VerifySignatureParams): Promise<void> {
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

  const content = signedContent(timestamp, payload);
  const expected = signatures.map(hexToBytes);
  // One HMAC per secret, compared with every v1 entry: signing once and comparing in JavaScript costs one trip to
  // the runtime's crypto per secret instead of one per (secret, signature) pair, which is most of the time spent.
  const digests = await Promise.all(secrets.map((secret) => hmacSha256(secret, content)));
  for (const digest of digests) {
    const bytes = new Uint8Array(digest);
    for (const signature of expected) {
      if (digestsEqual(bytes, signature)) return;
    }
  }
  throw new WebhookVerificationError(
    'signature_mismatch',
    'No v1 signature matches the payload and secret. Check the secret and that the payload is the unmodified raw body.',
  );
}
