// What the receiver tests do through the API of a running mock: a client of a new organization, the events of a card
// holder's first steps, and the wait for their deliveries' first attempts.
import { randomUUID } from 'node:crypto';
import { Cardrail, CardrailUsers } from '@cardrail/sdk';

/** A client of a new organization of the mock, with its key (the receivers that use a client read it too). */
export type MockClient = (Cardrail | CardrailUsers) & { readonly apiKey: string };

export function cardrailClient(baseUrl: string, variant: 'customer' | 'user'): MockClient {
  const apiKey = `sk_test_receivers_${randomUUID().replace(/-/g, '')}`;
  const options = { apiKey, baseUrl, maxRetries: 0 };
  const client = variant === 'user' ? new CardrailUsers(options) : new Cardrail(options);
  return Object.assign(client, { apiKey });
}

interface StoredEvent {
  id: string;
  type: string;
}

/** Creates a funded owner with an agent and a card, freezes the card, and answers every event that made, oldest first. */
export async function produceEvents(client: MockClient): Promise<StoredEvent[]> {
  const email = `holder-${randomUUID()}@example.com`;
  let agentId: string;
  let cardId: string;
  if (client instanceof CardrailUsers) {
    const user = await client.users.create({ email });
    await client.simulate.deposit({ userId: user.id, amount: 10_000 });
    agentId = (await client.agents.create({ userId: user.id, name: 'Receiver test agent' })).id;
    cardId = (await client.cards.create({ agentId })).id;
  } else {
    const customer = await client.customers.create({ email });
    await client.simulate.deposit({ customerId: customer.id, amount: 10_000 });
    agentId = (await client.agents.create({ customerId: customer.id, name: 'Receiver test agent' })).id;
    cardId = (await client.cards.create({ customerId: customer.id, agentId })).id;
  }
  await client.cards.freeze(cardId);
  const events: StoredEvent[] = [];
  for await (const event of client.events.list({ limit: 100 })) events.push({ id: event.id, type: event.type });
  return events.reverse();
}

type Delivery = Awaited<ReturnType<Cardrail['webhooks']['deliveries']['list']>>['data'][number];

/** The webhook's delivery of each event once each has had its first attempt (in the order of `events`). */
export async function deliveriesSettled(
  client: MockClient,
  webhookId: string,
  events: readonly StoredEvent[],
  timeoutMs = 20_000,
): Promise<Delivery[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const byEvent = new Map<string, Delivery>();
    for await (const delivery of client.webhooks.deliveries.list(webhookId, { limit: 100 }))
      byEvent.set(delivery.eventId, delivery);
    const settled = events.map((event) => byEvent.get(event.id)).filter((delivery) => (delivery?.attempts.length ?? 0) > 0);
    if (settled.length === events.length) return settled as Delivery[];
    if (Date.now() > deadline) {
      throw new Error(`${events.length - settled.length} of ${events.length} deliveries had no attempt after ${timeoutMs} ms`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
