import { WebhookVerificationError } from '../errors.js';

/** The exact bytes of the request body, as received: a string, or any byte view or buffer (Node's Buffer included). */
export type RawPayload = string | ArrayBufferView | ArrayBuffer;

const RAW_BODY_HELP =
  'Webhook signatures are computed over the raw request body, so the payload must be the body exactly as received ' +
  '(a string, Uint8Array/Buffer or ArrayBuffer), not a parsed object: re-serializing JSON changes bytes and breaks ' +
  'the signature. node:http: collect the request chunks into a Buffer; Express: express.raw({ type: ' +
  "'application/json' }) on the webhook route; Next.js route handler: await request.text(); Hono: await c.req.text(). " +
  'See the @cardrail/sdk README, section "Raw request body".';

// Pure: a bundle that imports only the API client drops it along with the webhook code.
const encoder = /* @__PURE__ */ new TextEncoder();

export function rawPayloadBytes(payload: unknown): Uint8Array {
  const checked = checkedRawPayload(payload);
  return typeof checked === 'string' ? encoder.encode(checked) : checked;
}

/** The body as a string (left unencoded, so it is encoded once, where it is used) or a view of its bytes. */
export function checkedRawPayload(payload: unknown): string | Uint8Array {
  if (typeof payload === 'string') return payload;
  // ArrayBuffer.isView and the toString tag also recognise buffers from another realm (jsdom, vm, iframes).
  if (ArrayBuffer.isView(payload)) return new Uint8Array(payload.buffer, payload.byteOffset, payload.byteLength);
  if (Object.prototype.toString.call(payload) === '[object ArrayBuffer]') return new Uint8Array(payload as ArrayBuffer);
  const received = payload === null ? 'null' : Array.isArray(payload) ? 'an array' : `a value of type ${typeof payload}`;
  throw new WebhookVerificationError('invalid_payload', `Expected the raw request body but received ${received}. ${RAW_BODY_HELP}`);
}
