import { bytesToHex } from './digest-bytes.js';
import { hmacSha256, secretList, signedContent, type WebhookSecret } from './hmac.js';
import { checkedRawPayload, type RawPayload } from './raw-payload.js';
import { formatSignatureHeader } from './signature-header.js';
import { toUnixSeconds, type UnixTime } from './timestamp.js';

export interface GenerateSignatureHeaderParams {
  /** The exact body that will be sent. */
  payload: RawPayload;
  /** A secret, or several during rotation: one `v1=` entry per secret, in this order. */
  secret: WebhookSecret;
  /** When the delivery is signed; unix seconds or a Date. Default: now. */
  timestamp?: UnixTime;
}

/** Builds the `Cardrail-Signature` value for a payload: `t=<unix seconds>,v1=<hex>[,v1=<hex>...]`. */
export async function generateSignatureHeader(params: GenerateSignatureHeaderParams): Promise<string> {
  const secrets = secretList(params.secret);
  const timestamp = toUnixSeconds(params.timestamp);
  const content = signedContent(timestamp, checkedRawPayload(params.payload));
  const digests = await Promise.all(secrets.map((secret) => hmacSha256(secret, content)));
  return formatSignatureHeader(timestamp, digests.map((digest) => bytesToHex(new Uint8Array(digest))));
}
