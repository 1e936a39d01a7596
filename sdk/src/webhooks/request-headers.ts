// Reading a delivery's signature headers from whatever a framework hands a receiver: a fetch `Headers` (Next.js route
// handlers, Hono's `c.req.raw.headers`, Workers), anything else with a `get(name)` (Express's `req`, Next's
// `headers()`, a Map), or a plain record (node:http's, Express's and Fastify's `req.headers`, Hono's `c.req.header()`).
import { STANDARD_WEBHOOKS_HEADERS } from './standard-webhooks.js';

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
export interface SignatureHeaderValues {
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
export function signatureHeaderValues(headers: WebhookHeaders): SignatureHeaderValues {
  const get = getterOf(headers);
  return {
    cardrailSignature: get('cardrail-signature'),
    webhookId: get(STANDARD_WEBHOOKS_HEADERS.id),
    webhookTimestamp: get(STANDARD_WEBHOOKS_HEADERS.timestamp),
    webhookSignature: get(STANDARD_WEBHOOKS_HEADERS.signature),
  };
}
