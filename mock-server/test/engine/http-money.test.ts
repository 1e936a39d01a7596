import { describe, expect, it } from 'vitest';
import { Scenario } from './support/http-scenario.js';

const RECIPIENT = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';

describe('HTTP: deposits, withdrawals, KYC and disputes', () => {
  it('raises the balance on a deposit, named by customerId or userId', async () => {
    const s = new Scenario();
    const { customer } = await s.setup({ balance: 0 });
    const deposit = await s.ok('POST', '/simulate/deposits', { customerId: customer.id, amount: 5000 });
    expect(deposit).toMatchObject({ customerId: customer.id, amount: 5000, chainId: 8453 });
    const events = await s.expectEvents(['deposit.received', 'user.balance.updated']);
    expect(events[0]?.data).toMatchObject({ userId: customer.id, amount: 5000, transactionHash: deposit.transactionHash });
    expect(events[1]?.data).toMatchObject({ available: 5000, pending: 0, deposited: 5000 });
    await s.ok('POST', '/simulate/deposits', { userId: customer.id, amount: 1000 }, 'user');
    expect(await s.ok('GET', `/users/${customer.id}/balances`, undefined, 'user')).toMatchObject({ available: 6000 });
    expect((await s.call('POST', '/simulate/deposits', { customerId: 'cus_unknown', amount: 1 })).status).toBe(404);
  });

  it('submits a withdrawal out of available, then confirms it; a failed one returns the money', async () => {
    const s = new Scenario();
    const { customer } = await s.setup({ balance: 10_000 });
    const refused = await s.call('POST', `/customers/${customer.id}/withdrawals`, {
      amount: 20_000,
      chainId: 8453,
      recipientAddress: RECIPIENT,
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe('insufficient_funds');
    const withdrawal = await s.ok('POST', `/customers/${customer.id}/withdrawals`, {
      amount: 4000,
      chainId: 8453,
      recipientAddress: RECIPIENT,
    });
    expect(withdrawal).toMatchObject({ status: 'pending', amount: 4000, transactionHash: null });
    const submitted = await s.expectEvents(['withdrawal.submitted', 'user.balance.updated']);
    expect(submitted[0]?.data).toMatchObject({ withdrawalId: withdrawal.id, status: 'pending', recipientAddress: RECIPIENT });
    const confirmed = await s.ok('POST', `/simulate/withdrawals/${withdrawal.id}/confirm`);
    expect(confirmed.status).toBe('confirmed');
    const confirmedEvents = await s.expectEvents(['withdrawal.confirmed']);
    expect(confirmedEvents[0]?.data.transactionHash).toBe(confirmed.transactionHash);
    expect((await s.call('POST', `/simulate/withdrawals/${withdrawal.id}/fail`)).status).toBe(400);

    const second = await s.ok(
      'POST',
      `/users/${customer.id}/withdrawals`,
      { amount: 1000, chainId: 8453, recipientAddress: RECIPIENT },
      'user',
    );
    await s.settle();
    const failed = await s.ok('POST', `/simulate/withdrawals/${second.id}/fail`, undefined, 'user');
    expect(failed).toMatchObject({ status: 'failed', reason: 'insufficient_gas' });
    await s.expectEvents(['withdrawal.failed', 'user.balance.updated']);
    expect(await s.ok('GET', `/withdrawals/${second.id}`)).toMatchObject({ status: 'failed' });
    expect(await s.ok('GET', `/customers/${customer.id}/balances`)).toMatchObject({ available: 6000 });
  });

  it('records KYC outcomes; approval activates the customer and assigns a deposit address', async () => {
    const s = new Scenario();
    const { customer } = await s.setup({ balance: 0 });
    const info = await s.ok('POST', '/simulate/kyc', {
      customerId: customer.id,
      status: 'needsInformation',
      requiredFields: ['address', 'ssn'],
    });
    expect(info).toMatchObject({ status: 'needsInformation', requiredFields: ['address', 'ssn'], depositAddress: null });
    const denied = await s.ok(
      'POST',
      '/simulate/kyc',
      { userId: customer.id, status: 'denied', reason: 'document_expired' },
      'user',
    );
    expect(denied).toMatchObject({ status: 'denied', reason: 'document_expired' });
    const approved = await s.ok('POST', '/simulate/kyc', { customerId: customer.id, status: 'approved' });
    const events = await s.expectEvents([
      'user.application.needs_info',
      'user.application.denied',
      'user.application.approved',
      'deposit.address_ready',
    ]);
    expect(events[1]?.data).toMatchObject({ applicationStatus: 'denied', reason: 'document_expired' });
    expect(events[3]?.data).toMatchObject({ userId: customer.id, ...approved.depositAddress });
    expect(await s.ok('GET', `/customers/${customer.id}`)).toMatchObject({
      status: 'active',
      kycStatus: 'approved',
      depositAddress: approved.depositAddress,
    });
  });

  it('opens a dispute on a settled transaction and resolves it; a won dispute credits the amount back', async () => {
    const s = new Scenario();
    const { card, customer } = await s.setup({ balance: 5000 });
    const txn = await s.authorize(card.id, 2000);
    expect((await s.call('POST', `/simulate/transactions/${txn.id}/dispute`, {})).status).toBe(400);
    await s.ok('POST', `/simulate/transactions/${txn.id}/settle`, {});
    await s.settle();
    const dispute = await s.ok('POST', `/simulate/transactions/${txn.id}/dispute`, { reason: 'not_received' });
    expect(dispute).toMatchObject({
      transactionId: txn.id,
      cardId: card.id,
      amount: 2000,
      reason: 'not_received',
      status: 'open',
      outcome: null,
    });
    await s.expectEvents(['dispute.created']);
    const resolved = await s.ok('POST', `/simulate/disputes/${dispute.id}/resolve`, { outcome: 'won' });
    expect(resolved).toMatchObject({ status: 'closed', outcome: 'won', resolvedAt: '2026-11-23T12:00:00.000Z' });
    const events = await s.expectEvents(['dispute.resolved', 'user.balance.updated']);
    expect(events[0]?.data).toMatchObject({ disputeId: dispute.id, outcome: 'won', status: 'closed' });
    expect(await s.ok('GET', `/customers/${customer.id}/balances`)).toMatchObject({ available: 5000, posted: 0 });
    expect((await s.call('POST', `/simulate/disputes/${dispute.id}/resolve`, { outcome: 'lost' })).status).toBe(400);
  });

  it('disputes only what a reversal left spent, so a won dispute never credits a refund twice', async () => {
    const s = new Scenario();
    const { card, customer } = await s.setup({ balance: 5000 });
    const refunded = await s.authorize(card.id, 2000);
    await s.ok('POST', `/simulate/transactions/${refunded.id}/settle`, {});
    await s.ok('POST', `/simulate/transactions/${refunded.id}/reverse`, {});
    await s.settle();
    const refused = await s.call('POST', `/simulate/transactions/${refunded.id}/dispute`, {});
    expect(refused).toMatchObject({ status: 400, body: { error: { code: 'invalid_state' } } });
    await s.expectEvents([]);

    const partly = await s.authorize(card.id, 2000, { name: 'AWS', mcc: '5734' });
    await s.ok('POST', `/simulate/transactions/${partly.id}/settle`, {});
    await s.ok('POST', `/simulate/transactions/${partly.id}/reverse`, { amount: 500 });
    expect((await s.call('POST', `/simulate/transactions/${partly.id}/dispute`, { amount: 2000 })).status).toBe(400);
    const dispute = await s.ok('POST', `/simulate/transactions/${partly.id}/dispute`, {});
    expect(dispute.amount).toBe(1500);
    await s.ok('POST', `/simulate/disputes/${dispute.id}/resolve`, { outcome: 'won' });
    expect(await s.ok('GET', `/customers/${customer.id}/balances`)).toMatchObject({ available: 5000, pending: 0, posted: 0 });
  });
});

describe('HTTP: money operations of a deleted customer', () => {
  it('answer 404', async () => {
    const s = new Scenario();
    const { customer } = await s.setup({ balance: 1000 });
    await s.ok('DELETE', `/customers/${customer.id}`);
    expect((await s.call('POST', '/simulate/deposits', { customerId: customer.id, amount: 100 })).status).toBe(404);
    expect(
      (await s.call('POST', `/customers/${customer.id}/withdrawals`, { amount: 100, chainId: 8453, recipientAddress: RECIPIENT }))
        .status,
    ).toBe(404);
    expect((await s.call('POST', '/simulate/kyc', { customerId: customer.id, status: 'approved' })).status).toBe(404);
  });
});
