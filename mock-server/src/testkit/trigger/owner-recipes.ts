import type { Recipe } from './recipe.js';
import type { TriggerWorld } from './world.js';

async function withdrawal(world: TriggerWorld): Promise<string> {
  const owner = await world.owner({ kyc: true });
  const created = await world.client.withdrawals.create(owner, {
    amount: 1_000,
    chainId: 8453,
    recipientAddress: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
  });
  world.step(`requested withdrawal ${created.id}`);
  return created.id;
}

/** The account holders' events: the owner's lifecycle, KYC, deposits and withdrawals. */
export const ownerRecipes = {
  'deposit.address_ready': {
    how: "approves a new owner's KYC application",
    async run(world) {
      await world.owner({ balance: 0, kyc: true });
    },
  },
  'deposit.received': {
    how: 'deposits to a new owner',
    async run(world) {
      await world.owner({ balance: 10_000 });
    },
  },
  'user.application.approved': {
    how: "approves a new owner's KYC application",
    async run(world) {
      await world.owner({ balance: 0, kyc: true });
    },
  },
  'user.application.denied': {
    how: "denies a new owner's KYC application",
    async run(world) {
      await world.kyc(await world.owner({ balance: 0 }), 'denied');
    },
  },
  'user.application.needs_info': {
    how: "asks a new owner's KYC application for more information",
    async run(world) {
      await world.kyc(await world.owner({ balance: 0 }), 'needsInformation');
    },
  },
  'user.balance.updated': {
    how: 'deposits to a new owner',
    async run(world) {
      await world.owner({ balance: 10_000 });
    },
  },
  'user.created': {
    how: 'creates an owner (customer or user)',
    async run(world) {
      await world.owner({ balance: 0 });
    },
  },
  'user.deleted': {
    how: 'creates an owner, then deletes it',
    async run(world) {
      const owner = await world.owner({ balance: 0 });
      const { client } = world;
      if ('users' in client) await client.users.delete(owner);
      else await client.customers.delete(owner);
      world.step(`deleted ${owner}`);
    },
  },
  'user.updated': {
    how: 'creates an owner, then changes its phone number',
    async run(world) {
      const owner = await world.owner({ balance: 0 });
      const { client } = world;
      if ('users' in client) await client.users.update(owner, { phone: '+14155550199' });
      else await client.customers.update(owner, { phone: '+14155550199' });
      world.step(`updated ${owner}`);
    },
  },
  'verification.initiated': {
    how: 'creates an owner (KYC starts)',
    async run(world) {
      await world.owner({ balance: 0 });
    },
  },
  'withdrawal.confirmed': {
    how: 'requests a withdrawal, then confirms it on-chain',
    async run(world) {
      const id = await withdrawal(world);
      await world.client.simulate.confirmWithdrawal(id);
      world.step(`confirmed ${id}`);
    },
  },
  'withdrawal.failed': {
    how: 'requests a withdrawal, then fails it on-chain',
    async run(world) {
      const id = await withdrawal(world);
      await world.client.simulate.failWithdrawal(id);
      world.step(`failed ${id}`);
    },
  },
  'withdrawal.submitted': {
    how: 'requests a withdrawal',
    async run(world) {
      await withdrawal(world);
    },
  },
} satisfies Record<string, Recipe>;
