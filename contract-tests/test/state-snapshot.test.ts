import { createMockServer } from '@cardrail/mock-server';
import { afterAll, describe, expect, it } from 'vitest';
import { authHeaders } from '../src/request-builder.js';
import { clientFor, newTestKey } from '../src/scenario/context.js';
import { loadSpecs } from '../src/spec.js';
import { snapshotOrganization } from '../src/state-snapshot.js';

/**
 * The "state unchanged" verdict of the fuzz and documented-status suites rests on this snapshot: it must see a change
 * in an object no list returns (a withdrawal), and it must refuse to compare reads that failed.
 */
describe('the organization state snapshot', () => {
  const BASE = 'http://mock.invalid/v1';
  const mock = createMockServer({ frozenClock: '2026-11-21T12:00:00.000Z' });
  const fetchFn = (request: Request) => mock.handle(request);
  const apiKey = newTestKey();
  const spec = loadSpecs().customer;
  afterAll(() => mock.reset());

  it('changes when a withdrawal changes, even though no list endpoint returns withdrawals', async () => {
    const { client } = clientFor('customer', { apiKey, baseUrl: BASE, fetch: fetchFn });
    if (!('customers' in client)) throw new Error('expected the customer client');
    const owner = await client.customers.create({ type: 'consumer', email: 'snap@example.com' });
    await client.simulate.kyc({ customerId: owner.id, status: 'approved' });
    await client.simulate.deposit({ customerId: owner.id, amount: 10_000, chainId: 8453 });
    const withdrawal = await client.withdrawals.create(owner.id, {
      amount: 100,
      chainId: 8453,
      recipientAddress: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    });
    await mock.idle();
    const snapshot = () =>
      snapshotOrganization(fetchFn, BASE, authHeaders('customer', apiKey), spec, [`/withdrawals/${withdrawal.id}`]);
    const before = await snapshot();
    expect(await snapshot()).toBe(before);

    await client.simulate.confirmWithdrawal(withdrawal.id);
    await mock.idle();
    const withdrawalLine = (text: string) => text.split('\n').find((line) => line.startsWith('/withdrawals/'));
    const after = await snapshot();
    expect(withdrawalLine(after)).not.toBe(withdrawalLine(before));
    expect(withdrawalLine(after)).toContain('"status":"confirmed"');
  });

  it('fails instead of comparing reads that were refused', async () => {
    await expect(snapshotOrganization(fetchFn, BASE, authHeaders('customer', 'sk_test_short'), spec)).rejects.toThrow(
      /could not read GET \/customers\?limit=100: 401/,
    );
    await expect(
      snapshotOrganization(fetchFn, BASE, authHeaders('customer', apiKey), spec, ['/withdrawals/wd_DoesNotExist1']),
    ).rejects.toThrow(/404/);
  });
});
