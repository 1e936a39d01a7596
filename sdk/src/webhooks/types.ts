// The shapes of `@cardrail/sdk/webhooks`' parameters and results, exported by both entry points as they are.

/** The exact bytes of the request body, as received: a string, or any byte view or buffer (Node's Buffer included). */
export type RawPayload = string | ArrayBufferView | ArrayBuffer;
/** One signing secret or several (during rotation the old and new secret both sign). */
export type WebhookSecret = string | readonly string[];
/** A point in time as a Date or as unix seconds (the unit of the header's `t=`). */
export type UnixTime = Date | number;
/** The signature schemes a delivery carries: `Cardrail-Signature`, and Standard Webhooks (`webhook-*` headers). */
export type SignatureScheme = 'Cardrail-Signature' | 'Standard Webhooks';

/** The request's headers: a `Headers`, anything with `get(name)`, or a record such as Node's `req.headers` (any case). */
export type WebhookHeaders =
  | {
      /** The value of one header, by name in any case (as `Headers.get` answers). */
      get(name: string): string | null | undefined;
    }
  | Readonly<Record<string, string | readonly string[] | undefined>>;

/** How far the signature's time may be from now, and what now is. */
export interface VerificationTimeOptions {
  /** Allowed distance between the signature's timestamp and now, both directions. Default 300. */
  toleranceSeconds?: number;
  /** The current time, unix seconds or a Date. Default: the system clock. */
  now?: UnixTime;
}

/** What `verifySignature` and `constructEvent` check: the raw body, `headers` or `header`, and the secret(s). */
export interface VerifySignatureParams extends VerificationTimeOptions {
  /** The raw request body exactly as received; a parsed object is refused. */
  payload: RawPayload;
  /** The request's headers as the framework gives them: each scheme they carry is verified (both must agree). */
  headers?: WebhookHeaders;
  /** The value of the `Cardrail-Signature` header alone, instead of `headers`. */
  header?: string | null | undefined;
  /** The endpoint's signing secret, or several (any one matching suffices) while rotating. */
  secret: WebhookSecret;
}

/** What `generateSignatureHeader` signs, with which secret(s) and at which time. */
export interface GenerateSignatureHeaderParams {
  /** The exact body that will be sent. */
  payload: RawPayload;
  /** A secret, or several during rotation: one signature per secret, in this order. */
  secret: WebhookSecret;
  /** When the delivery is signed; unix seconds or a Date. Default: now. */
  timestamp?: UnixTime;
}

/** What `generateWebhookHeaders` signs: the `generateSignatureHeader` parameters, the message id and the schemes. */
export interface GenerateWebhookHeadersParams extends GenerateSignatureHeaderParams {
  /** `webhook-id`: the same on every retry of one delivery. Default: a new `msg_` id. */
  id?: string;
  /** Adds the Standard Webhooks headers beside `Cardrail-Signature`. Default true. */
  standardWebhooks?: boolean;
}

/** A `Cardrail-Signature` header, parsed: `t=<unix seconds>,v1=<hex>[,v1=<hex>]`. */
export interface ParsedSignatureHeader {
  /** Unix seconds the sender put in `t=`. */
  timestamp: number;
  /** Every non-empty `v1=` digest, lower-cased, in header order. */
  signatures: string[];
}

/** The Standard Webhooks headers of a delivery, parsed. */
export interface ParsedStandardWebhooksHeaders {
  /** The message id (`webhook-id`): the same on every retry of one delivery, so receivers can deduplicate. */
  id: string;
  /** Unix seconds of `webhook-timestamp`. */
  timestamp: number;
  /** Every `v1,` signature, in header order (base64 of 32 bytes). */
  signatures: string[];
}
