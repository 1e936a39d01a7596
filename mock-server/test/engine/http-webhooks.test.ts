import { verifySignature } from '@cardrail/sdk/webhooks';
import { describe, expect, it } from 'vitest';
import { Scenario } from './support/http-scenario.js';

interface Delivery {
  url: string;
  body: string;
  signature: string;
}

describe('HTTP: engine events reach webhooks in each variant’s envelope and names', () => {
  it('delivers an authorization as transaction.created (general) and transaction.authorized (catalog), signed', async () => {
    const deliveries: Delivery[] = [];
    const s = new Scenario({
      fetch: async (url, init) => {
        deliveries.push({ url, body: String(init.body), signature: new Headers(init.headers).get('Cardrail-Signature') ?? '' });
        return new Response(null, { status: 204 });
      },
    });
    const general = await s.ok('POST', '/webhooks', {
      url: 'https://ops.example.com/general',
      events: ['transaction.created', 'anomaly.duplicate'],
    });
    const catalog = await s.ok(
      'POST',
      '/webhooks',
      { url: 'https://ops.example.com/catalog', events: ['transaction.authorized', 'anomaly.duplicate'] },
      'user',
    );
    const { card } = await s.setup();
    const first = await s.authorize(card.id, 2000);
    const second = await s.authorize(card.id, 2000);
    await s.mock.idle();

    // Deliveries run concurrently, so their arrival order is not the events' order: compare sorted.
    const at = (url: string) => deliveries.filter((d) => d.url === url).map((d) => JSON.parse(d.body));
    const pairs = (url: string) =>
      at(url)
        .map((e) => [e.type, e.data.transactionId])
        .sort();
    expect(pairs('https://ops.example.com/general')).toEqual(
      [
        ['anomaly.duplicate', second.id],
        ['transaction.created', first.id],
        ['transaction.created', second.id],
      ].sort(),
    );
    expect(pairs('https://ops.example.com/catalog')).toEqual(
      [
        ['anomaly.duplicate', second.id],
        ['transaction.authorized', first.id],
        ['transaction.authorized', second.id],
      ].sort(),
    );
    const generalEvent = at('https://ops.example.com/general').find((e) => e.type === 'transaction.created');
    expect(typeof generalEvent.createdAt).toBe('string');
    expect(generalEvent.data.merchant).toEqual({ name: 'OpenAI', mcc: '5734' });
    const catalogEvent = at('https://ops.example.com/catalog').find((e) => e.type === 'transaction.authorized');
    expect(typeof catalogEvent.createdAt).toBe('number');
    expect(catalogEvent.organizationId).toMatch(/^org_/);
    expect(catalogEvent.data).not.toHaveProperty('merchant');
    for (const delivery of deliveries) {
      const secret = delivery.url.endsWith('general') ? general.secret : catalog.secret;
      await expect(
        verifySignature({
          payload: delivery.body,
          header: delivery.signature,
          secret,
          now: Date.parse('2026-11-23T12:00:00.000Z') / 1000,
        }),
      ).resolves.toBeUndefined();
    }
  });
});
