// The README's snippets, compiled: if the spec changes a field they use, this file stops compiling.
import { describe, expectTypeOf, it } from 'vitest';
import { Cardrail, CardrailUsers, NotFoundError } from '../src/index.js';
import { constructEvent, constructEventSync, WebhookVerificationError } from '../src/webhooks/index.js';

describe('README examples', () => {
  it('creates a customer, an agent and a card, and freezes it', async () => {
    const cardrail = new Cardrail({ apiKey: 'sk_test_readme123', baseUrl: 'http://127.0.0.1:4010/v1' });
    const customer = await cardrail.customers.create({ type: 'consumer', email: 'ada@example.com' });
    const agent = await cardrail.agents.create({ customerId: customer.id, name: 'Travel booker' });
    const card = await cardrail.cards.create({ customerId: customer.id, agentId: agent.id, type: 'virtual', usage: 'multi' });
    const frozen = await cardrail.cards.freeze(card.id);
    expectTypeOf(frozen.status).toExtend<string>();
    try {
      await cardrail.cards.retrieve('card_doesnotexist');
    } catch (error) {
      if (error instanceof NotFoundError) expectTypeOf(error.requestId).toEqualTypeOf<string | undefined>();
    }
    await cardrail.cards.update(card.id, { status: 'active' }, { idempotencyKey: `unfreeze-${card.id}`, timeoutMs: 5_000 });
    const patient = cardrail.withOptions({ maxRetries: 5, timeoutMs: 120_000 });
    expectTypeOf(patient).toEqualTypeOf<Cardrail>();
    for await (const listed of cardrail.cards.list({ limit: 100, status: 'active' })) expectTypeOf(listed.id).toBeString();
    await cardrail.transactions.list().toArray({ limit: 500 });
    let page = await cardrail.agents.list({ limit: 20 });
    while (page.hasNextPage()) page = await page.getNextPage();
    const { requestId } = await cardrail.cards.retrieve(card.id).withResponse();
    expectTypeOf(requestId).toEqualTypeOf<string | undefined>();
  });

  it('uses the user variant', async () => {
    const client = new CardrailUsers({ apiKey: 'sk_test_readme123' });
    await client.users.create({ type: 'consumer', email: 'ada@example.com' });
  });

  it('verifies webhooks in a fetch-style (Next.js, Hono, Workers) handler', () => {
    const secret = 'whsec_x';
    async function POST(request: Request): Promise<Response> {
      try {
        const event = await constructEvent({
          payload: await request.text(),
          header: request.headers.get('cardrail-signature'),
          secret,
        });
        if (event.type === 'card.frozen') expectTypeOf(event.data.reason).toBeString();
        if (event.type === 'transaction.declined') expectTypeOf(event.data.declinedReason).toBeString();
        return new Response(null, { status: 200 });
      } catch (error) {
        if (error instanceof WebhookVerificationError) return new Response(error.code, { status: 400 });
        throw error;
      }
    }
    expectTypeOf(POST).returns.resolves.toEqualTypeOf<Response>();
  });

  it('verifies synchronously where node:crypto is resolved (an Express-style handler)', () => {
    const secret = 'whsec_x';
    // The shape of Express's req/res as the README snippet uses them (express.raw gives a Buffer body).
    const handler = (req: { body: Buffer; get(name: string): string | undefined }, res: { sendStatus(status: number): void }) => {
      const event = constructEventSync({ payload: req.body, header: req.get('Cardrail-Signature'), secret });
      if (event.type === 'card.frozen') expectTypeOf(event.data.reason).toBeString();
      res.sendStatus(200);
    };
    expectTypeOf(handler).returns.toEqualTypeOf<void>();
  });
});
