// A delivery as the webhook functions read it (a checked part per scheme, then its event) and write it (parts, headers).
import type { CardrailEvent } from '../events/cardrail-event.js';
import * as schemes from './schemes.js';
import * as checks from './signature-checks.js';
import type { DeliveryPart } from './signature-checks.js';
import type { GenerateWebhookHeadersParams, VerifySignatureParams } from './types.js';

/** One checked part per scheme the request carries; the checks run in order: payload, secrets, headers, time. */
export function checkedParts(params: VerifySignatureParams): DeliveryPart[] {
  const payload = checks.checkedRawPayload(params.payload);
  const secrets = checks.secretList(params.secret);
  const found = signatureHeaderValues(params);
  const parts: DeliveryPart[] = [];
  if (found.cardrail !== undefined || params.headers === undefined) {
    const { timestamp, signatures } = schemes.parseSignatureHeader(found.cardrail);
    parts.push({ payload, secrets, prefix: `${timestamp}.`, signatures, timestamp, scheme: 'Cardrail-Signature' });
  }
  if (found.id !== undefined || found.timestamp !== undefined || found.signature !== undefined) {
    const { id, timestamp, signatures } = schemes.parseStandardWebhooksHeaders(found.id, found.timestamp, found.signature);
    for (const secret of secrets) schemes.standardWebhooksKey(secret);
    parts.push({ payload, secrets, prefix: `${id}.${timestamp}.`, signatures, timestamp, scheme: 'Standard Webhooks' });
  }
  const [first, second] = parts;
  if (first === undefined) {
    const none = 'No Cardrail-Signature or webhook-signature header was found on the request';
    throw checks.refusal('missing_header', `${none}: pass its headers as they arrived.`);
  }
  if (second !== undefined && second.timestamp !== first.timestamp) {
    throw checks.conflictingHeaders(`Cardrail-Signature t=${first.timestamp}, webhook-timestamp ${second.timestamp}`);
  }
  checks.checkTimestamp(first.timestamp, params);
  return parts;
}

/**
 * The signature headers of a request (absent and empty ones undefined), or its `header`, from a fetch `Headers` (Next.js,
 * Hono's `c.req.raw.headers`, Workers), anything with `get(name)` (Express's `req`) or a record (node:http, Fastify).
 */
function signatureHeaderValues({ headers, header }: VerifySignatureParams) {
  if (headers === undefined) return { cardrail: header, id: undefined, timestamp: undefined, signature: undefined };
  if (header != null) throw new TypeError('Pass `headers` or `header`, not both.');
  if (typeof headers !== 'object' || headers === null) {
    const expected = "headers must be the request's headers (a Headers object or node:http's req.headers)";
    throw new TypeError(`${expected}, got ${String(headers)}.`);
  }
  const record = headers as Record<string, unknown>;
  // Node writes names in lower case (one lookup); other records are searched without regard to case.
  const anyCase = (name: string) => Object.keys(record).find((key) => key.toLowerCase() === name) ?? name;
  const get = (name: string) => {
    let value: unknown = typeof record.get === 'function' ? record.get(name) : record[name in record ? name : anyCase(name)];
    // A header sent twice is one value, joined as Node joins repeated headers.
    if (Array.isArray(value)) value = value.join(', ');
    return typeof value === 'string' && value.trim() !== '' ? value : undefined;
  };
  const { id, timestamp, signature } = schemes.STANDARD_WEBHOOKS_HEADERS;
  return { cardrail: get('cardrail-signature'), id: get(id), timestamp: get(timestamp), signature: get(signature) };
}

/** Cardrail-Signature's content, then Standard Webhooks' if `standardWebhooks` and the parameters do not opt out. */
export function signing(params: GenerateWebhookHeadersParams, standardWebhooks: boolean): DeliveryPart[] {
  const secrets = checks.secretList(params.secret);
  const timestamp = checks.toUnixSeconds(params.timestamp);
  const payload = checks.checkedRawPayload(params.payload);
  const prefix = `${timestamp}.`;
  const cardrail: DeliveryPart = { payload, secrets, prefix, scheme: 'Cardrail-Signature', timestamp, signatures: [] };
  if (!standardWebhooks || params.standardWebhooks === false) return [cardrail];
  const id = params.id ?? `msg_${crypto.randomUUID().replace(/-/g, '')}`;
  if (typeof id !== 'string' || !schemes.MESSAGE_ID.test(id)) {
    throw new TypeError(`id must be 1 to 255 printable ASCII characters without spaces, got ${JSON.stringify(id)}.`);
  }
  for (const secret of secrets) schemes.standardWebhooksKey(secret);
  return [cardrail, { ...cardrail, prefix: `${id}.${timestamp}.`, scheme: 'Standard Webhooks', id }];
}

/** The headers of a signed delivery, from the digests of each content (`v1` entries in the order of the secrets). */
export function signatureHeaders(
  [cardrail, standard]: readonly DeliveryPart[],
  [cardrailDigests = [], standardDigests = []]: readonly (readonly string[])[],
): Record<string, string> & { 'Cardrail-Signature': string } {
  const signatures = cardrailDigests.map((digest) => `,v1=${digest}`).join('');
  const headers = { 'Cardrail-Signature': `t=${cardrail?.timestamp}${signatures}` };
  if (standard?.id === undefined) return headers;
  const names = schemes.STANDARD_WEBHOOKS_HEADERS;
  const signature = standardDigests.map((digest) => `v1,${digest}`).join(' ');
  return { ...headers, [names.id]: standard.id, [names.timestamp]: String(standard.timestamp), [names.signature]: signature };
}

const decoder = /* @__PURE__ */ new TextDecoder();
/** The event of a verified body (bytes decoded as UTF-8). Types this SDK does not know yet pass: a sender may be newer. */
export function parseEvent(payload: string | Uint8Array): CardrailEvent {
  let event: unknown;
  try {
    event = JSON.parse(typeof payload === 'string' ? payload : decoder.decode(payload));
  } catch (cause) {
    throw checks.refusal('invalid_json', `The signature is valid but the body is not JSON: ${String(cause)}`);
  }
  const type = typeof event === 'object' && event !== null ? (event as { type?: unknown }).type : undefined;
  if (typeof type === 'string') return event as CardrailEvent;
  throw checks.refusal('invalid_json', 'The signature is valid but the body is not an event (an object with a string `type`).');
}
