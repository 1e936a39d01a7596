import type { Harness } from './harness.js';
import { newKey } from './keys.js';
import type { ReceivedDelivery, Receiver } from './receiver.js';

export interface SubscribeOptions {
  variant?: 'customer' | 'user';
  events?: string[];
  standardWebhooks?: boolean;
}

/**
 * The steps webhook tests share, on the harness `harness()` gives (made in a beforeAll): a new organization with a
 * receiver subscribed, a card.frozen event made through the API, the deliveries of a webhook, the last delivery a
 * receiver got, and an organization's test clock.
 */
export function webhookScenario(harness: () => Harness) {
  async function subscribe(options: SubscribeOptions = {}) {
    const h = harness();
    const key = newKey();
    const receiver = await h.receiver();
    const body = {
      url: receiver.url,
      events: options.events ?? ['card.frozen'],
      ...(options.standardWebhooks === undefined ? {} : { standardWebhooks: options.standardWebhooks }),
    };
    const webhook = (await h.call('POST', '/webhooks', { key, variant: options.variant, body })).body;
    return { key, receiver, webhook };
  }

  /** Makes a card.frozen event in the key's organization; resolves once its deliveries have been attempted. */
  async function freezeACard(key: string, variant: 'customer' | 'user' = 'customer') {
    const h = harness();
    const owner = (
      await h.call('POST', variant === 'user' ? '/users' : '/customers', { key, variant, body: { email: 'ada@example.com' } })
    ).body;
    const agent = (await h.call('POST', '/agents', { key, body: { customerId: owner.id, name: 'Buyer' } })).body;
    const card = (await h.call('POST', '/cards', { key, body: { customerId: owner.id, agentId: agent.id } })).body;
    await h.call('POST', `/cards/${card.id}/freeze`, { key });
    await h.mock.idle();
    return card.id as string;
  }

  return {
    subscribe,
    freezeACard,
    now: (key: string) => harness().mock.clock.now(key),
    deliveriesOf: async (key: string, webhookId: string) =>
      (await harness().call('GET', `/webhooks/${webhookId}/deliveries?limit=100`, { key })).body.data,
    last: (receiver: Receiver) => receiver.received.at(-1) as ReceivedDelivery,
  };
}
