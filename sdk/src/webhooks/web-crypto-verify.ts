// constructEvent on Web Crypto, alone in a module: the Web Crypto build of `@cardrail/sdk/webhooks` exports it, and a
// client's `webhooks.unwrap` imports it on first use, without the rest of the webhooks module.
import type { CardrailEvent } from '../events/cardrail-event.js';
import { checkedDeliveries, type VerifySignatureParams } from './delivery.js';
import { parseEvent } from './event-body.js';
import { verifiedPayload } from './signature-checks.js';
import { webCryptoDigests } from './web-crypto-hmac.js';

export async function webCryptoConstructEvent(params: VerifySignatureParams): Promise<CardrailEvent> {
  return parseEvent(await verifiedPayload(webCryptoDigests, checkedDeliveries(params)));
}
