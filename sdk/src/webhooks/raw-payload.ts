import { WebhookVerificationError } from '../errors.js';

/** The exact bytes of the request body, as received: a string, or any byte view or buffer (Node's Buffer included). */
export type RawPayload = string | ArrayBufferView | ArrayBuffer;

const RAW_BODY_HELP =
  'Signatures cover the raw request body: pass it exactly as received (a string, Uint8Array/Buffer or ArrayBuffer), ' +
  'not a parsed object, whose re-serialized JSON has other bytes. node:http: join the request chunks in a Buffer; ' +
  "Express: express.raw({ type: 'application/json' }) on the webhook route; Next.js route handler: await " +
  'request.text(); Hono: await c.req.text(). See the @cardrail/sdk README, section "Raw request body".';

/** The body as a string (left unencoded, so it is encoded once, where it is used) or a view of its bytes. */
export function checkedRawPayload(payload: unknown): string | Uint8Array {
  // Strings and byte arrays (Node's Buffer is one) are used as they are: no wrapper, no copy.
  if (typeof payload === 'string' || payload instanceof Uint8Array) return payload;
  // ArrayBuffer.isView and the toString tag also recognise buffers from another realm (jsdom, vm, iframes).
  if (ArrayBuffer.isView(payload)) return new Uint8Array(payload.buffer, payload.byteOffset, payload.byteLength);
  if (Object.prototype.toString.call(payload) === '[object ArrayBuffer]') return new Uint8Array(payload as ArrayBuffer);
  const received = payload === null ? 'null' : Array.isArray(payload) ? 'an array' : `a value of type ${typeof payload}`;
  throw new WebhookVerificationError(
    'invalid_payload',
    `Expected the raw request body but received ${received}. ${RAW_BODY_HELP}`,
  );
}
