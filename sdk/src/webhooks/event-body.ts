import { WebhookVerificationError } from '../errors.js';
import type { CardrailEvent } from '../events/cardrail-event.js';

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
