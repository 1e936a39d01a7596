import { type Recipe, TTL_SECONDS } from './recipe.js';
import type { TriggerWorld } from './world.js';

const MERCHANT = 'Example Store';

/**
 * A payment token of a fresh holder's card for an ACP allowance of 2,000 cents at Example Store, which ends
 * `seconds` from the organization's test-clock time; `approval` makes the card's agent require approval.
 */
async function mintToken(world: TriggerWorld, options: { approval?: boolean; seconds?: number } = {}) {
  const { card } = await world.holder(options.approval ? { agent: { policy: { requireApproval: true } } } : {});
  const now = Date.parse((await world.client.simulate.clock.retrieve()).now);
  const token = await world.client.paymentTokens.create(card, {
    acp: {
      allowance: {
        reason: 'one_time',
        max_amount: 2_000,
        currency: 'usd',
        checkout_session_id: `cs_trigger_${now.toString(36)}`,
        merchant_id: 'merch_trigger',
        expires_at: new Date(now + (options.seconds ?? 3600) * 1000).toISOString(),
      },
      merchantName: MERCHANT,
    },
  });
  world.step(`minted payment token ${token.id} (${token.status}) for ${card}`);
  return token;
}

/** The payment token events: minted, issued, refused, used, expired, revoked. */
export const paymentTokenRecipes = {
  'payment_token.created': {
    how: 'mints a payment token for an ACP allowance',
    async run(world) {
      await mintToken(world);
    },
  },
  'payment_token.issued': {
    how: 'mints a payment token on a card that needs no approval (issued at once)',
    async run(world) {
      await mintToken(world);
    },
  },
  'payment_token.rejected': {
    how: 'mints a payment token on a card whose agent requires approval, then rejects its intent',
    async run(world) {
      const token = await mintToken(world, { approval: true });
      if (token.intentId === null) throw new Error(`The payment token ${token.id} waits on no intent.`);
      await world.client.intents.reject(token.intentId, { reason: 'triggered rejection' });
      world.step(`rejected ${token.intentId}`);
    },
  },
  'payment_token.used': {
    how: 'mints a payment token, then authorizes it at its merchant',
    async run(world) {
      const token = await mintToken(world);
      if (token.networkToken === null) throw new Error(`The payment token ${token.id} has no number.`);
      const { number, cryptogram } = token.networkToken;
      const transaction = await world.withRisk({}, async () => {
        const { id, status } = await world.client.simulate.authorize({
          token: { number, cryptogram },
          amount: 2_000,
          currency: 'usd',
          merchant: { name: MERCHANT, id: 'merch_trigger' },
        });
        return { id, status };
      });
      world.step(`authorized 2000 cents with ${token.id}: ${transaction.id} ${transaction.status}`);
    },
  },
  'payment_token.expired': {
    how: 'mints a payment token whose allowance ends in a minute, then lets the minute pass',
    time: { seconds: TTL_SECONDS },
    async run(world) {
      await mintToken(world, { seconds: TTL_SECONDS });
      await world.pass(TTL_SECONDS, "the payment token's allowance");
    },
  },
  'payment_token.revoked': {
    how: 'mints a payment token, then revokes it',
    async run(world) {
      const token = await mintToken(world);
      await world.client.paymentTokens.revoke(token.id);
      world.step(`revoked ${token.id}`);
    },
  },
} satisfies Record<string, Recipe>;
