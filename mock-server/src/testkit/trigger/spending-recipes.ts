import { declareIntent, type Recipe, TTL_SECONDS } from './recipe.js';
import type { TriggerWorld } from './world.js';

/** A funded holder's card authorized once at a merchant: the transaction the money recipes start from. */
async function authorizedTransaction(world: TriggerWorld, amount = 2_500): Promise<string> {
  const { card } = await world.holder();
  return world.withRisk({}, async () => (await world.authorize(card, amount, 'Example Store')).id);
}

async function settledTransaction(world: TriggerWorld): Promise<string> {
  const transaction = await authorizedTransaction(world);
  await world.client.simulate.settle(transaction);
  world.step(`settled ${transaction}`);
  return transaction;
}

async function dispute(world: TriggerWorld): Promise<string> {
  const transaction = await settledTransaction(world);
  const opened = await world.client.simulate.dispute(transaction, { reason: 'fraudulent' });
  world.step(`disputed ${transaction}: ${opened.id}`);
  return opened.id;
}

/** The spending events: transactions, disputes, intents, credentials and attestation, 3-D Secure. */
export const spendingRecipes = {
  'challenge.requested': {
    how: 'authorizes with 3-D Secure',
    async run(world) {
      const { card } = await world.holder();
      await world.withRisk({}, () => world.authorize(card, 700, 'Example Airline', { threeDS: true }));
    },
  },
  'credential.accessed': {
    how: "retrieves a new card's credentials",
    async run(world) {
      const { card } = await world.holder();
      await world.client.cards.credentials(card, { summary: 'Triggered purchase', expectedAmount: 1_000 });
      world.step(`retrieved the credentials of ${card}`);
    },
  },
  'dispute.created': {
    how: 'settles an authorization, then disputes it',
    async run(world) {
      await dispute(world);
    },
  },
  'dispute.resolved': {
    how: 'settles an authorization, disputes it, then resolves the dispute (won)',
    async run(world) {
      const id = await dispute(world);
      await world.client.simulate.resolveDispute(id, { outcome: 'won' });
      world.step(`resolved ${id}: won`);
    },
  },
  'intent.approved': {
    how: 'declares an intent on a card whose agent requires approval, then approves it',
    async run(world) {
      const { intent: id } = await declareIntent(world, { approval: true });
      await world.client.intents.approve(id);
      world.step(`approved ${id}`);
    },
  },
  'intent.created': {
    how: 'declares an intent',
    async run(world) {
      await declareIntent(world);
    },
  },
  'intent.expired': {
    how: 'declares an intent that lives one minute, then lets the minute pass',
    time: { seconds: TTL_SECONDS },
    async run(world) {
      await declareIntent(world, { ttlMinutes: 1 });
      await world.pass(TTL_SECONDS, "the intent's time-to-live");
    },
  },
  'intent.matched': {
    how: 'declares an intent, retrieves the credentials for it, then authorizes what it said',
    async run(world) {
      const { card, intent: id } = await declareIntent(world);
      await world.client.cards.credentials(card, { intentId: id, summary: 'Triggered purchase', expectedAmount: 2_000 });
      world.step(`retrieved the credentials of ${card} for ${id}`);
      await world.withRisk({}, () => world.authorize(card, 2_050, 'Example Store'));
    },
  },
  'intent.mismatched': {
    how: 'declares an intent, then authorizes far more than it',
    async run(world) {
      const { card } = await declareIntent(world);
      await world.withRisk({}, () => world.authorize(card, 9_000, 'Example Store'));
    },
  },
  'intent.pending_approval': {
    how: 'declares an intent on a card whose agent requires approval',
    async run(world) {
      await declareIntent(world, { approval: true });
    },
  },
  'intent.rejected': {
    how: 'declares an intent on a card whose agent requires approval, then rejects it',
    async run(world) {
      const { intent: id } = await declareIntent(world, { approval: true });
      await world.client.intents.reject(id, { reason: 'triggered rejection' });
      world.step(`rejected ${id}`);
    },
  },
  'spend.attested': {
    how: "retrieves a card's credentials, then authorizes on it",
    async run(world) {
      const { card } = await world.holder();
      await world.client.cards.credentials(card, { summary: 'Triggered purchase', expectedAmount: 1_000 });
      world.step(`retrieved the credentials of ${card}`);
      await world.withRisk({}, () => world.authorize(card, 1_000, 'Example Store'));
    },
  },
  'spend.unattested': {
    how: 'authorizes without a credential access first',
    async run(world) {
      const { card } = await world.holder();
      await world.withRisk({}, () => world.authorize(card, 500, 'Example Store'));
    },
  },
  'transaction.authorized': {
    how: 'authorizes a spend on a new card',
    async run(world) {
      await authorizedTransaction(world);
    },
  },
  'transaction.completed': {
    how: 'authorizes a spend, then settles it',
    async run(world) {
      await settledTransaction(world);
    },
  },
  'transaction.declined': {
    how: 'freezes a new card, then authorizes on it (declined card_frozen)',
    async run(world) {
      const { card } = await world.holder();
      await world.client.cards.freeze(card);
      world.step(`froze ${card}`);
      await world.withRisk({}, () => world.authorize(card, 500, 'Example Store'));
    },
  },
  'transaction.reversed': {
    how: 'authorizes a spend, then reverses it',
    async run(world) {
      const transaction = await authorizedTransaction(world);
      await world.client.simulate.reverse(transaction);
      world.step(`reversed ${transaction}`);
    },
  },
} satisfies Record<string, Recipe>;
