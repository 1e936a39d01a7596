// Payment tokens in the saved state: a mock restored from a snapshot still knows every token by its number, still
// accepts each active token's cryptogram (the organization's key is saved with it), and expires the open ones on
// time (their expiries are scheduled again).
import { describe, expect, it } from 'vitest';
import { createMockServer, type MockSnapshot } from '../../src/index.js';
import { newKey } from '../support/keys.js';

const START = '2026-11-23T12:00:00.000Z';

function client(mock: ReturnType<typeof createMockServer>, key: string) {
  return async (method: string, path: string, body?: unknown) => {
    const response = await mock.handle(
      new Request(`http://127.0.0.1:4010/v1${path}`, {
        method,
        headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    );
    return response.json();
  };
}

describe('payment tokens across a snapshot and a restore', () => {
  it('authorizes a token minted before the restore once, and expires another on time', async () => {
    const key = newKey();
    const before = createMockServer({ frozenClock: START });
    const call = client(before, key);
    const customer = await call('POST', '/customers', { email: 'ada@example.com' });
    await call('POST', '/simulate/deposits', { customerId: customer.id, amount: 10_000 });
    const card = await call('POST', '/cards', { customerId: customer.id });
    const allowance = (session: string, expires: string) => ({
      acp: {
        allowance: {
          reason: 'one_time',
          max_amount: 1_000,
          currency: 'usd',
          checkout_session_id: session,
          merchant_id: 'merch_1',
          expires_at: expires,
        },
        merchantName: 'Store',
      },
    });
    const paying = await call('POST', `/cards/${card.id}/payment-tokens`, allowance('cs_pay', '2026-11-23T13:00:00Z'));
    const brief = await call('POST', `/cards/${card.id}/payment-tokens`, allowance('cs_brief', '2026-11-23T12:05:00Z'));

    const after = createMockServer({ frozenClock: START });
    after.restore(JSON.parse(JSON.stringify(before.snapshot())) as MockSnapshot);
    const again = client(after, key);
    const presented = { number: paying.networkToken.number, cryptogram: paying.networkToken.cryptogram };
    const authorize = () =>
      again('POST', '/simulate/authorize', { token: presented, amount: 900, merchant: { name: 'Store', id: 'merch_1' } });
    expect(await authorize()).toMatchObject({ status: 'pending', paymentTokenId: paying.id });
    expect(await authorize()).toMatchObject({ status: 'declined', declinedReason: 'token_used' });

    await again('POST', '/simulate/clock/advance', { seconds: 300 });
    expect(await again('GET', `/payment-tokens/${brief.id}`)).toMatchObject({ status: 'expired' });
  });
});
