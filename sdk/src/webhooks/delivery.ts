// A delivery as the webhook functions take it, and as a sender writes it. Its signature headers are read from
// whatever a framework hands a receiver: a fetch `Headers` (Next.js route handlers, Hono's `c.req.raw.headers`,
// Workers), anything else with a `get(name)` (Express's `req`, Next's `headers()`, a Map), or a plain record
// (node:http's, Express's and Fastify's `req.headers`, Hono's `c.req.header()`). The parameters of verifySignature and
// constructEvent become one checked delivery per signature scheme the request carries; the parameters of the signing
// functions become the headers a sender puts on a delivery; a verified body becomes an event. Both builds call these,
// then their own HMAC.
import { WebhookVerificationError } from '../errors.js';
import type { CardrailEvent } from '../events/cardrail-event.js';
import {
  cardrailPrefix,
  formatSignatureHeader,
  formatStandardWebhooksSignature,
  MESSAGE_ID,
  parseSignatureHeader,
  parseStandardWebhooksHeaders,
  SIGNATURE_HEADER,
  STANDARD_WEBHOOKS_HEADERS,
  standardWebhooksKey,
  standardWebhooksPrefix,
} from './schemes.js';
import {
  type CheckedDelivery,
  checkedRawPayload,
  checkTimestamp,
  conflictingHeaders,
  type RawPayload,
  secretList,
  type SignedContent,
  toUnixSeconds,
  type UnixTime,
  type WebhookSecret,
} from './signature-checks.js';

/** How far the signature's time may be from now, and what now is. */
export interface VerificationTimeOptions {
  /** Allowed distance between the signature's timestamp and now, both directions. Default 300. */
  toleranceSeconds?: number;
  /** The current time, unix seconds or a Date. Default: the system clock. */
  now?: UnixTime;
}

/**
 * What `verifySignature` and `constructEvent` check: the raw body, the request's signature headers, the secret(s).
 * Pass `headers` (the request's headers: the scheme is read from them) or `header` (the `Cardrail-Signature` value).
 */
export interface VerifySignatureParams extends VerificationTimeOptions {
  /** The raw request body exactly as received; a parsed object is refused. */
  payload: RawPayload;
  /**
   * The request's headers, as the framework gives them (`request.headers`, node:http's `req.headers`...). Whichever
   * scheme they carry is verified: `Cardrail-Signature`, Standard Webhooks (`webhook-id`, `webhook-timestamp`,
   * `webhook-signature`), or both, which must then agree.
   */
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

/**
 * One checked delivery per scheme the request carries, once the payload, the secrets, the headers and the time have
 * passed: the checks run in that order, so two faults report the first. Both schemes must carry the same time.
 */
export function checkedDeliveries(params: VerifySignatureParams): CheckedDelivery[] {
  const payload = checkedRawPayload(params.payload);
  const secrets = secretList(params.secret);
  const deliveries: CheckedDelivery[] = [];
  if (params.headers === undefined) {
    const { timestamp, signatures } = parseSignatureHeader(params.header);
    deliveries.push({ payload, secrets, prefix: cardrailPrefix(timestamp), signatures, timestamp, scheme: SIGNATURE_HEADER });
  } else {
    if (params.header != null) {
      throw new TypeError('Pass `headers` or `header`, not both.');
    }
    const found = signatureHeaderValues(params.headers);
    if (found.cardrailSignature !== undefined) {
      const { timestamp, signatures } = parseSignatureHeader(found.cardrailSignature);
      deliveries.push({ payload, secrets, prefix: cardrailPrefix(timestamp), signatures, timestamp, scheme: SIGNATURE_HEADER });
    }
    if (found.webhookId !== undefined || found.webhookTimestamp !== undefined || found.webhookSignature !== undefined) {
      const { id, timestamp, signatures } = parseStandardWebhooksHeaders(
        found.webhookId,
        found.webhookTimestamp,
        found.webhookSignature,
      );
      for (const secret of secrets) standardWebhooksKey(secret);
      deliveries.push({
        payload,
        secrets,
        prefix: standardWebhooksPrefix(id, timestamp),
        signatures,
        timestamp,
        scheme: 'Standard Webhooks',
      });
    }
    const [first, second] = deliveries;
    if (first === undefined) {
      throw new WebhookVerificationError(
        'missing_header',
        'No Cardrail-Signature or webhook-signature header was found on the request: pass its headers as they arrived.',
      );
    }
    if (second !== undefined && second.timestamp !== first.timestamp) {
      throw conflictingHeaders(`Cardrail-Signature t=${first.timestamp}, webhook-timestamp ${second.timestamp}`);
    }
  }
  checkTimestamp((deliveries[0] as CheckedDelivery).timestamp, params);
  return deliveries;
}

/** What a signing call signs, once its parameters have passed; `timestamp` goes into the header. */
export function signingInput(params: GenerateSignatureHeaderParams): SignedContent & { readonly timestamp: number } {
  const secrets = secretList(params.secret);
  const timestamp = toUnixSeconds(params.timestamp);
  return {
    payload: checkedRawPayload(params.payload),
    secrets,
    prefix: cardrailPrefix(timestamp),
    timestamp,
    scheme: SIGNATURE_HEADER,
  };
}

/** The Standard Webhooks content of a signing call, beside its Cardrail-Signature content; undefined when not wanted. */
export function standardWebhooksInput(
  params: GenerateWebhookHeadersParams,
  content: SignedContent & { readonly timestamp: number },
): (SignedContent & { readonly id: string }) | undefined {
  if (params.standardWebhooks === false) return undefined;
  const id = params.id ?? `msg_${crypto.randomUUID().replace(/-/g, '')}`;
  if (typeof id !== 'string' || !MESSAGE_ID.test(id)) {
    throw new TypeError(`id must be 1 to 255 printable ASCII characters without spaces, got ${JSON.stringify(id)}.`);
  }
  for (const secret of content.secrets) standardWebhooksKey(secret);
  return { ...content, prefix: standardWebhooksPrefix(id, content.timestamp), scheme: 'Standard Webhooks', id };
}

/** A delivery's signature headers from its digests: Cardrail-Signature, then the Standard Webhooks ones if made. */
export function formatWebhookHeaders(
  timestamp: number,
  cardrailDigests: readonly string[],
  standard: { id: string; digests: readonly string[] } | undefined,
): Record<string, string> {
  const headers: Record<string, string> = { [SIGNATURE_HEADER]: formatSignatureHeader(timestamp, cardrailDigests) };
  if (standard) {
    headers[STANDARD_WEBHOOKS_HEADERS.id] = standard.id;
    headers[STANDARD_WEBHOOKS_HEADERS.timestamp] = String(timestamp);
    headers[STANDARD_WEBHOOKS_HEADERS.signature] = formatStandardWebhooksSignature(standard.digests);
  }
  return headers;
}

/**
 * The request's headers: a `Headers` object (or anything with `get(name)`), or a plain record of header names to
 * values, such as Node's `req.headers`. Names are matched without regard to case.
 */
export type WebhookHeaders =
  | {
      /** The value of one header, by name in any case (as `Headers.get` answers). */
      get(name: string): string | null | undefined;
    }
  | Readonly<Record<string, string | readonly string[] | undefined>>;

/** The signature headers found on a request; absent ones are undefined. */
interface SignatureHeaderValues {
  cardrailSignature: string | undefined;
  webhookId: string | undefined;
  webhookTimestamp: string | undefined;
  webhookSignature: string | undefined;
}

/** One header's value, or undefined when the request has none or an empty one. */
type HeaderGetter = (name: string) => string | undefined;

function getterOf(headers: unknown): HeaderGetter {
  if (typeof headers !== 'object' || headers === null) {
    throw new TypeError(
      `headers must be the request's headers (a Headers object or node:http's req.headers), got ${String(headers)}.`,
    );
  }
  const { get } = headers as { get?: unknown };
  const record = headers as Record<string, unknown>;
  const read =
    typeof get === 'function'
      ? (name: string): unknown => get.call(headers, name)
      : (name: string): unknown => {
          // Node writes names in lower case: one lookup. Other records are searched without regard to case.
          if (name in record) return record[name];
          for (const key in record) if (key.toLowerCase() === name) return record[key];
          return undefined;
        };
  return (name) => {
    let value = read(name);
    // A header sent twice is one value, joined as Node joins repeated headers.
    if (Array.isArray(value)) value = value.join(', ');
    return typeof value === 'string' && value.trim() !== '' ? value : undefined;
  };
}

/** The signature headers of both schemes a request carries. */
function signatureHeaderValues(headers: WebhookHeaders): SignatureHeaderValues {
  const get = getterOf(headers);
  return {
    cardrailSignature: get('cardrail-signature'),
    webhookId: get(STANDARD_WEBHOOKS_HEADERS.id),
    webhookTimestamp: get(STANDARD_WEBHOOKS_HEADERS.timestamp),
    webhookSignature: get(STANDARD_WEBHOOKS_HEADERS.signature),
  };
}

// Pure: a bundle that imports only the API client drops it along with the webhook code.
const decoder = /* @__PURE__ */ new TextDecoder();

/** Parses a verified body into a `CardrailEvent`; a string body is parsed as it is, bytes are decoded as UTF-8. */
export function parseEvent(payload: string | Uint8Array): CardrailEvent {
  let event: unknown;
  try {
    event = JSON.parse(typeof payload === 'string' ? payload : decoder.decode(payload));
  } catch (cause) {
    throw new WebhookVerificationError('invalid_json', `The signature is valid but the body is not JSON: ${String(cause)}`);
  }
  if (typeof event !== 'object' || event === null || typeof (event as { type?: unknown }).type !== 'string') {
    throw new WebhookVerificationError(
      'invalid_json',
      'The signature is valid but the body is not an event (an object with a string `type`).',
    );
  }
  // Types this SDK version does not know yet are passed through: the sender may be newer than the receiver.
  return event as CardrailEvent;
}
