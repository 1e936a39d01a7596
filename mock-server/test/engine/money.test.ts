import { afterEach, describe, expect, it } from 'vitest';
import { balanceOf } from '../../src/domain/balances.js';
import { HttpError } from '../../src/core/errors.js';
import { simulateDeposit } from '../../src/engine/money/deposits.js';
import { simulateKyc } from '../../src/engine/money/kyc.js';
import { confirmWithdrawal, createWithdrawal, failWithdrawal } from '../../src/engine/money/withdrawals.js';
import { authorize } from '../../src/engine/transactions/authorize.js';
import { openDispute, resolveDispute, reverseTransaction, settleTransaction } from '../../src/engine/transactions/settlement.js';
import { EngineWorld } from './support/engine-world.js';

const RECIPIENT = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
let world: EngineWorld;
afterEach(() => {
  expect(world.invalidEvents).toEqual([]);
});

function balance(customerId: string) {
  const { available, pending, posted, deposited } = balanceOf(world.tenant, customerId);
  return { available, pending, posted, deposited };
}

describe('money', () => {
  it('raises available on a deposit (deposit.received, user.balance.updated)', () => {
    world = new EngineWorld();
    const { customer } = world.setup({ balance: 0 });
    const deposit = simulateDeposit(world.tenant, { customerId: customer.id, amount: 5000 });
    expect(deposit.transactionHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(world.types()).toEqual(['deposit.received', 'user.balance.updated']);
    expect(world.event('user.balance.updated')).toMatchObject({ available: 5000, pending: 0, deposited: 5000 });
  });

  it('moves an authorization to pending, settlement to posted (partial settlement releases the rest), a refund back', () => {
    world = new EngineWorld();
    const { card, customer } = world.setup({ balance: 10_000 });
    const txn = authorize(world.tenant, { cardId: card.id, amount: 3000, merchant: { name: 'OpenAI' } });
    expect(balance(customer.id)).toEqual({ available: 7000, pending: 3000, posted: 0, deposited: 10_000 });
    world.clearEvents();
    settleTransaction(world.tenant, txn.id, 2500);
    expect(world.types()).toEqual(['transaction.completed', 'user.balance.updated']);
    expect(world.event('transaction.completed')).toMatchObject({
      amount: 2500,
      authorizedAmount: 3000,
      status: 'completed',
      postedAt: world.now(),
    });
    expect(balance(customer.id)).toEqual({ available: 7500, pending: 0, posted: 2500, deposited: 10_000 });
    world.clearEvents();
    reverseTransaction(world.tenant, txn.id, undefined);
    expect(world.event('transaction.reversed')).toMatchObject({ originalAmount: 2500, reversedAmount: 2500, status: 'reversed' });
    expect(balance(customer.id)).toEqual({ available: 10_000, pending: 0, posted: 0, deposited: 10_000 });
    expect(world.state.cardState(card.id).sums.spent('perDay', world.now())).toBe(0);
  });

  it('voids a pending authorization and refuses to settle a declined one', () => {
    world = new EngineWorld();
    const { card, customer } = world.setup({ balance: 1000 });
    const txn = authorize(world.tenant, { cardId: card.id, amount: 600, merchant: { name: 'OpenAI' } });
    reverseTransaction(world.tenant, txn.id, undefined);
    expect(balance(customer.id)).toMatchObject({ available: 1000, pending: 0 });
    const declined = authorize(world.tenant, { cardId: card.id, amount: 5000, merchant: { name: 'OpenAI' } });
    expect(() => settleTransaction(world.tenant, declined.id, undefined)).toThrow(HttpError);
  });

  it('opens and resolves a dispute; a won dispute credits the amount back', () => {
    world = new EngineWorld();
    const { card, customer } = world.setup({ balance: 5000 });
    const txn = authorize(world.tenant, { cardId: card.id, amount: 2000, merchant: { name: 'OpenAI' } });
    settleTransaction(world.tenant, txn.id, undefined);
    world.clearEvents();
    const dispute = openDispute(world.tenant, txn.id, {});
    expect(world.event('dispute.created')).toMatchObject({
      disputeId: dispute.id,
      transactionId: txn.id,
      amount: 2000,
      reason: 'fraudulent',
      status: 'open',
    });
    expect(() => openDispute(world.tenant, txn.id, {})).toThrow(HttpError);
    world.clearEvents();
    resolveDispute(world.tenant, dispute.id, 'won');
    expect(world.types()).toEqual(['dispute.resolved', 'user.balance.updated']);
    expect(world.event('dispute.resolved')).toMatchObject({ outcome: 'won', status: 'closed' });
    expect(balance(customer.id)).toMatchObject({ available: 5000, posted: 0 });
  });

  it('submits, confirms and fails withdrawals with their events; above available is insufficient_funds', () => {
    world = new EngineWorld();
    const { customer } = world.setup({ balance: 10_000 });
    expect(() =>
      createWithdrawal(world.tenant, customer.id, { amount: 20_000, chainId: 8453, recipientAddress: RECIPIENT }),
    ).toThrow(/exceeds the available/);
    const first = createWithdrawal(world.tenant, customer.id, { amount: 4000, chainId: 8453, recipientAddress: RECIPIENT });
    expect(world.types()).toEqual(['withdrawal.submitted', 'user.balance.updated']);
    expect(balance(customer.id).available).toBe(6000);
    world.clearEvents();
    confirmWithdrawal(world.tenant, first.id);
    expect(world.event('withdrawal.confirmed').transactionHash).toMatch(/^0x[0-9a-f]{64}$/);
    const second = createWithdrawal(world.tenant, customer.id, { amount: 1000, chainId: 8453, recipientAddress: RECIPIENT });
    world.clearEvents();
    failWithdrawal(world.tenant, second.id);
    expect(world.types()).toEqual(['withdrawal.failed', 'user.balance.updated']);
    expect(world.event('withdrawal.failed')).toMatchObject({ reason: 'insufficient_gas', transactionHash: null });
    expect(balance(customer.id).available).toBe(6000);
  });

  it('records KYC outcomes; approval assigns a deposit address', () => {
    world = new EngineWorld();
    const { customer } = world.setup({ balance: 0 });
    simulateKyc(world.tenant, { customerId: customer.id, status: 'needsInformation', requiredFields: ['ssn'] });
    simulateKyc(world.tenant, { customerId: customer.id, status: 'denied' });
    const approved = simulateKyc(world.tenant, { customerId: customer.id, status: 'approved' });
    expect(world.types()).toEqual([
      'user.application.needs_info',
      'user.application.denied',
      'user.application.approved',
      'deposit.address_ready',
    ]);
    expect(world.event('user.application.needs_info')).toMatchObject({
      applicationStatus: 'needsInformation',
      requiredFields: ['ssn'],
    });
    expect(world.event('deposit.address_ready')).toMatchObject({
      chainId: 8453,
      depositAddress: approved.depositAddress?.depositAddress,
    });
    expect(world.customer(customer.id)).toMatchObject({
      kycStatus: 'approved',
      status: 'active',
      depositAddress: approved.depositAddress,
    });
  });
});
