// A delivery as the webhook functions take it, and as a sender writes it: the parameters of verifySignature and
// constructEvent become one checked delivery per signature scheme the request carries, those of the signing functions
// the contents to sign and then the headers a sender puts on a delivery, and a verified body becomes an event.
import { WebhookVerificationError } from '../errors.js';
import type { CardrailEvent } from '../events/cardrail-event.js';
import * as schemes from './schemes.js';
import * as checks from './signature-checks.js';
import type { CheckedDelivery, SignedContent } from './signature-checks.js';
import type { GenerateWebhookHeadersParams, VerifySignatureParams } from './types.js';

/** One checked delivery per scheme the request carries. Checks run in order (payload, secrets, headers, time). */
export function checkedDeliveries(params: VerifySignatureParams): CheckedDelivery[] {
  const payload = checks.checkedRawPayload(params.payload);
  const secrets = checks.secretList(params.secret);
  const found = signatureHeaderValues(params);
  const deliveries: CheckedDelivery[] = [];
  if (found.cardrail !== undefined || params.headers === undefined) {
    const { timestamp, signatures } = schemes.parseSignatureHeader(found.cardrail);
    deliveries.push({ payload, secrets, prefix: `${timestamp}.`, signatures, timestamp, scheme: 'Cardrail-Signature' });
  }
  if (found.id !== undefined || found.timestamp !== undefined || found.signature !== undefined) {
    const { id, timestamp, signatures } = schemes.parseStandardWebhooksHeaders(found.id, found.timestamp, found.signature);
    for (const secret of secrets) schemes.standardWebhooksKey(secret);
    deliveries.push({ payload, secrets, prefix: `${id}.${timestamp}.`, signatures, timestamp, scheme: 'Standard Webhooks' });
  }
  const [first, second] = deliveries;
  if (first === undefined) {
    throw new WebhookVerificationError(
      'missing_header',
      'No Cardrail-Signature or webhook-signature header was found on the request: pass its headers as they arrived.',
    );
  }
  if (second !== undefined && second.timestamp !== first.timestamp) {
    throw checks.conflictingHeaders(`Cardrail-Signature t=${first.timestamp}, webhook-timestamp ${second.timestamp}`);
  }
  checks.checkTimestamp(first.timestamp, params);
  return deliveries;
}

/** The signature headers on a request (absent and empty ones undefined), or the `header` it was given. */
function signatureHeaderValues({ headers, header }: VerifySignatureParams) {
  if (headers === undefined) return { cardrail: header, id: undefined, timestamp: undefined, signature: undefined };
  if (header != null) throw new TypeError('Pass `headers` or `header`, not both.');
  const get = getterOf(headers);
  const { id, timestamp, signature } = schemes.STANDARD_WEBHOOKS_HEADERS;
  return { cardrail: get('cardrail-signature'), id: get(id), timestamp: get(timestamp), signature: get(signature) };
}

/**
 * Reads a header from whatever a framework hands a receiver: a fetch `Headers` (Next.js route handlers, Hono's
 * `c.req.raw.headers`, Workers), anything else with a `get(name)` (Express's `req`, Next's `headers()`, a Map), or a
 * plain record (node:http's, Express's and Fastify's `req.headers`, Hono's `c.req.header()`).
 */
function getterOf(headers: unknown): (name: string) => string | undefined {
  if (typeof headers !== 'object' || headers === null) {
    throw new TypeError(
      `headers must be the request's headers (a Headers object or node:http's req.headers), got ${String(headers)}.`,
    );
  }
  const { get } = headers as { get?: unknown };
  const record = headers as Record<string, unknown>;
  return (name) => {
    let value: unknown;
    if (typeof get === 'function') value = get.call(headers, name);
    // Node writes names in lower case: one lookup. Other records are searched without regard to case.
    else if (name in record) value = record[name];
    else value = record[Object.keys(record).find((key) => key.toLowerCase() === name) ?? name];
    // A header sent twice is one value, joined as Node joins repeated headers.
    if (Array.isArray(value)) value = value.join(', ');
    return typeof value === 'string' && value.trim() !== '' ? value : undefined;
  };
}

/** One scheme's content of a signing call, with what its headers carry besides the digests (`id`: Standard Webhooks). */
export interface SigningContent extends SignedContent {
  readonly timestamp: number;
  readonly id?: string;
}

/** What a signing call signs: Cardrail-Signature's content, then Standard Webhooks' if wanted and not opted out of. */
export function signing(params: GenerateWebhookHeadersParams, standardWebhooks: boolean): SigningContent[] {
  const secrets = checks.secretList(params.secret);
  const timestamp = checks.toUnixSeconds(params.timestamp);
  const payload = checks.checkedRawPayload(params.payload);
  const contents: SigningContent[] = [{ payload, secrets, prefix: `${timestamp}.`, scheme: 'Cardrail-Signature', timestamp }];
  if (!standardWebhooks || params.standardWebhooks === false) return contents;
  const id = params.id ?? `msg_${crypto.randomUUID().replace(/-/g, '')}`;
  if (typeof id !== 'string' || !schemes.MESSAGE_ID.test(id)) {
    throw new TypeError(`id must be 1 to 255 printable ASCII characters without spaces, got ${JSON.stringify(id)}.`);
  }
  for (const secret of secrets) schemes.standardWebhooksKey(secret);
  return [...contents, { payload, secrets, prefix: `${id}.${timestamp}.`, scheme: 'Standard Webhooks', timestamp, id }];
}

/** A delivery's signature headers from the digests of each content of its signing, one `v1` per secret in order. */
export function signatureHeaders(
  [cardrail, standard]: readonly SigningContent[],
  [cardrailDigests = [], standardDigests = []]: readonly (readonly string[])[],
): Record<string, string> & { 'Cardrail-Signature': string } {
  const headers = {
    'Cardrail-Signature': [`t=${cardrail?.timestamp}`, ...cardrailDigests.map((digest) => `v1=${digest}`)].join(','),
  };
  if (standard?.id === undefined) return headers;
  const names = schemes.STANDARD_WEBHOOKS_HEADERS;
  const signature = standardDigests.map((digest) => `v1,${digest}`).join(' ');
  return { ...headers, [names.id]: standard.id, [names.timestamp]: String(standard.timestamp), [names.signature]: signature };
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
