import { WebhookVerificationError } from '../errors.js';
import type { CardrailEvent } from '../events/cardrail-event.js';
import { rawPayloadBytes } from './raw-payload.js';
import { verifySignature, type VerifySignatureParams } from './verify.js';

/**
 * Verifies the signature, then parses the body into a `CardrailEvent`, a union discriminated by `type`:
 * `switch (event.type) { case 'card.frozen': event.data.reason; ... }`.
 */
export async function constructEvent(params: VerifySignatureParams): Promise<CardrailEvent> {
  await verifySignature(params);
  let event: unknown;
  try {
    event = JSON.parse(new TextDecoder().decode(rawPayloadBytes(params.payload)));
  } catch (cause) {
    throw new WebhookVerificationError('invalid_json', `The signature is valid but the body is not JSON: ${String(cause)}`);
  }
  if (typeof event !== 'object' || event === null || typeof (event as { type?: unknown }).type !== 'string') {
    throw new WebhookVerificationError('invalid_json', 'The signature is valid but the body is not an event (an object with a string `type`).');
  }
  // Types this SDK version does not know yet are passed through: the sender may be newer than the receiver.
  return event as CardrailEvent;
}
