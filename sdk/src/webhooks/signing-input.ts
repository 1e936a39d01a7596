import { checkedRawPayload, type RawPayload } from './raw-payload.js';
import { secretList, type WebhookSecret } from './secret.js';
import { toUnixSeconds, type UnixTime } from './timestamp.js';

/** What `generateSignatureHeader` signs, with which secret(s) and at which time. */
export interface GenerateSignatureHeaderParams {
  /** The exact body that will be sent. */
  payload: RawPayload;
  /** A secret, or several during rotation: one `v1=` entry per secret, in this order. */
  secret: WebhookSecret;
  /** When the delivery is signed; unix seconds or a Date. Default: now. */
  timestamp?: UnixTime;
}

export interface SigningInput {
  readonly payload: string | Uint8Array;
  readonly secrets: readonly string[];
  readonly timestamp: number;
}

/** Checks the parameters of a signing call, in the same order on every runtime. */
export function signingInput(params: GenerateSignatureHeaderParams): SigningInput {
  const secrets = secretList(params.secret);
  const timestamp = toUnixSeconds(params.timestamp);
  return { payload: checkedRawPayload(params.payload), secrets, timestamp };
}
