// A card's JSON text is kept from one read to the next (core/record-text.ts): every change must show on the next read,
// in both variants, and a change that bypasses the card's collection is caught by the response checks.
import { describe, expect, it } from 'vitest';
import { createMockServer, type MockServer } from '../src/index.js';
import { forgetRecordText, recordText } from '../src/core/record-text.js';
import { Collection } from '../src/core/collection.js';
import { cards } from '../src/domain/cards.js';
import { FROZEN_AT, newKey } from './support/keys.js';

function caller(mock: MockServer, headers: Record<string, string>) {
  return async (method: string, path: string, body?: unknown) => {
    const response = await mock.handle(
      new Request(`http://127.0.0.1:4010/v1${path}`, {
        method,
        headers: body === undefined ? headers : { ...headers, 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    );
    return { status: response.status, body: (await response.json()) as Record<string, any> };
  };
}

describe('kept JSON text of a card', () => {
  it('is made again whenever its collection changes the record, and is per variant', () => {
    let seq = 0;
    const collection = new Collection<{ id: string; status: string }>(() => ++seq);
    const record = collection.insert({ id: 'card_1', status: 'active' });
    let made = 0;
    const text = () => recordText(record, 'customer', () => `${++made}:${record.status}`);
    expect(text()).toBe('1:active');
    expect(text()).toBe('1:active');
    expect(recordText(record, 'user', () => 'user text')).toBe('user text');
    collection.update('card_1', (item) => {
      item.status = 'frozen';
    });
    expect(text()).toBe('2:frozen');
    expect(recordText(record, 'user', () => 'user text again')).toBe('user text again');
    // Replaced by another copy (a shared store's refresh), or removed: the object that left has no text kept.
    collection.adopt('card_1', 1, { id: 'card_1', status: 'closed' });
    expect(text()).toBe('3:frozen');
    const copy = collection.get('card_1');
    if (copy === undefined) throw new Error('the adopted copy is not in the collection');
    const copyText = () => recordText(copy, 'customer', () => `${++made}:${copy.status}`);
    expect(copyText()).toBe('4:closed');
    expect(copyText()).toBe('4:closed');
    collection.delete('card_1');
    expect(copyText()).toBe('5:closed');
    // And its texts can be dropped by hand, as Collection does.
    forgetRecordText(copy);
    expect(copyText()).toBe('6:closed');
  });

  it('answers every change on the next read, in the customer variant', async () => {
    const mock = createMockServer({ frozenClock: FROZEN_AT });
    const call = caller(mock, { Authorization: `Bearer ${newKey()}` });
    const customer = await call('POST', '/customers', { email: 'ada@example.com' });
    await call('POST', '/simulate/deposits', { customerId: customer.body.id, amount: 1_000_000 });
    const agent = await call('POST', '/agents', { customerId: customer.body.id, name: 'Buyer' });
    const card = (await call('POST', '/cards', { customerId: customer.body.id, agentId: agent.body.id })).body;
    const read = async () => (await call('GET', `/cards/${card.id}`)).body;

    expect(await read()).toEqual(card);
    expect(await read()).toEqual(card);
    const limited = await call('PATCH', `/cards/${card.id}`, { policy: { limits: { perAuth: 5_000 } } });
    expect(limited.status).toBe(200);
    expect(await read()).toEqual(limited.body);
    expect((await read()).policy).toEqual({ limits: { perAuth: 5_000 } });

    const spent = await call('POST', '/simulate/authorize', {
      cardId: card.id,
      amount: 1_000,
      merchant: { name: 'OpenAI', mcc: '5734' },
    });
    expect(spent.body.status).toBe('pending');
    expect((await read()).lastSpendAt).toBe(FROZEN_AT);

    const frozen = await call('POST', `/cards/${card.id}/freeze`, {});
    expect(frozen.body.status).toBe('frozen');
    expect(await read()).toEqual(frozen.body);
    const closed = await call('POST', `/cards/${card.id}/close`, {});
    expect((await read()).status).toBe('closed');
    expect(await read()).toEqual(closed.body);
  });

  it('answers a change on the next read, in the user variant, and each variant its own body', async () => {
    const mock = createMockServer({ frozenClock: FROZEN_AT });
    const key = newKey();
    const call = caller(mock, { 'Api-Key': key });
    const user = await call('POST', '/users', { email: 'ada@example.com' });
    const agent = await call('POST', '/agents', { userId: user.body.id, name: 'Buyer' });
    const created = await call('POST', '/cards', { agentId: agent.body.id, type: 'multi' });
    expect(created.status).toBe(201);
    const card = created.body;
    const read = async () => (await call('GET', `/cards/${card.id}`)).body;
    expect(await read()).toEqual(card);
    const limited = await call('PATCH', `/cards/${card.id}`, { limits: { perAuth: 5_000 } });
    expect(limited.status).toBe(200);
    expect((await read()).limits).toEqual({ perAuth: 5_000 });
    const frozen = await call('POST', `/cards/${card.id}/freeze`, {});
    expect(frozen.body.status).toBe('frozen');
    expect(await read()).toEqual(frozen.body);
    expect(await read()).toHaveProperty('userId', user.body.id);
  });

  it('is reported by the response checks when a change bypassed the collection, instead of answered stale', async () => {
    const mock = createMockServer({ frozenClock: FROZEN_AT, validateResponses: true });
    const key = newKey();
    const call = caller(mock, { Authorization: `Bearer ${key}` });
    const customer = await call('POST', '/customers', { email: 'ada@example.com' });
    const agent = await call('POST', '/agents', { customerId: customer.body.id, name: 'Buyer' });
    const card = (await call('POST', '/cards', { customerId: customer.body.id, agentId: agent.body.id })).body;
    expect((await call('GET', `/cards/${card.id}`)).status).toBe(200);

    const tenant = mock.tenantOf(key);
    const record = tenant && cards.of(tenant).get(card.id);
    if (!record) throw new Error('the card is not in its tenant');
    record.last4 = '0000';
    const stale = await call('GET', `/cards/${card.id}`);
    expect(stale.status).toBe(500);
    expect(JSON.stringify(stale.body)).toMatch(/kept JSON text is older than the record/);
  });
});
