import { declareIntent, type Recipe } from './recipe.js';
import type { TriggerWorld } from './world.js';

const DAY = 24 * 3600;
const alert = { enabled: true, action: 'alert' } as const;

/** Two authorizations of the same amount at the same merchant under `rules`, on a holder whose agent has `agent`. */
async function twice(world: TriggerWorld, rules: Parameters<TriggerWorld['withRisk']>[0], agent = {}): Promise<void> {
  const { card } = await world.holder({ agent });
  await world.withRisk(rules, async () => {
    await world.authorize(card, 400, 'Example Store');
    await world.authorize(card, 400, 'Example Store');
  });
}

/** The events of the policy and the risk engine: budgets, merchant drift, anomalies and their actions. */
export const riskRecipes = {
  'agent.auto_suspended': {
    how: 'authorizes the same spend twice with duplicate detection set to suspend_agent',
    run: (world) => twice(world, { duplicateDetection: { enabled: true, windowMinutes: 10, action: 'suspend_agent' } }),
  },
  'agent.limit_approaching': {
    how: "spends 85% of a new agent's monthly budget",
    async run(world) {
      const { card } = await world.holder({ agent: { limits: { amount: 10_000, currency: 'usd', interval: 'monthly' } } });
      await world.withRisk({}, () => world.authorize(card, 8_500, 'Example Store'));
    },
  },
  'agent.limit_exceeded': {
    how: "spends 85% of a new agent's monthly budget, then tries to spend past it",
    async run(world) {
      const { card } = await world.holder({ agent: { limits: { amount: 10_000, currency: 'usd', interval: 'monthly' } } });
      await world.withRisk({}, async () => {
        await world.authorize(card, 8_500, 'Example Store');
        await world.authorize(card, 2_000, 'Example Store');
      });
    },
  },
  'anomaly.cooldown': {
    how: "authorizes twice within an agent's 5-minute cooldown, cooldown rule on (alert)",
    run: (world) => twice(world, { cooldownViolation: alert }, { policy: { cooldownMinutes: 5 } }),
  },
  'anomaly.duplicate': {
    how: 'authorizes the same spend twice, duplicate detection on (alert)',
    run: (world) => twice(world, { duplicateDetection: { enabled: true, windowMinutes: 10, action: 'alert' } }),
  },
  'anomaly.intent_mismatch': {
    how: 'declares an intent, then authorizes far more than it, intent-mismatch rule on (alert)',
    async run(world) {
      const { card } = await declareIntent(world);
      await world.withRisk({ intentMismatch: alert }, () => world.authorize(card, 9_000, 'Example Store'));
    },
  },
  'anomaly.merchant_drift': {
    how: "authorizes at another merchant than a card's merchant hint, merchant-drift rule on (alert)",
    async run(world) {
      const { card } = await world.holder({ agent: { policy: { onDrift: 'allow' } }, card: { merchantHint: 'AWS' } });
      await world.withRisk({ merchantDrift: alert }, () => world.authorize(card, 300, 'GCP'));
    },
  },
  'anomaly.spend_spike': {
    how: 'sets a baseline, lets 25 h pass on the test clock, then spends 50 times more within the hour (spike rule on)',
    time: { seconds: DAY + 3600, advanceOnly: true },
    async run(world) {
      const { card } = await world.holder();
      await world.withRisk(
        { spendSpike: { enabled: true, multiplier: 2, windowMinutes: 60, baselineDays: 1, action: 'alert' } },
        async () => {
          await world.authorize(card, 100, 'Baseline Store');
          // The baseline is the whole UTC day before today: pass to an hour into the next UTC day, so that the day
          // of the baseline spend is yesterday whatever the hour (a fixed 25 h from 23:00 UTC skipped a whole day).
          const now = new Date((await world.client.simulate.clock.retrieve()).now).getTime();
          await world.pass(Math.ceil(DAY - (now % (DAY * 1000)) / 1000 + 3600), 'a day of baseline');
          await world.authorize(card, 5_000, 'Example Store');
        },
      );
    },
  },
  'anomaly.unattested': {
    how: 'authorizes without a credential access first, unattested-spend rule on (alert)',
    async run(world) {
      const { card } = await world.holder();
      await world.withRisk({ unattestedSpend: alert }, () => world.authorize(card, 500, 'Example Store'));
    },
  },
  'anomaly.velocity': {
    how: 'authorizes three times within the hour with a limit of two per hour (alert)',
    async run(world) {
      const { card } = await world.holder();
      await world.withRisk({ velocityLimit: { enabled: true, maxPerHour: 2, maxPerDay: 50, action: 'alert' } }, async () => {
        for (const amount of [110, 120, 130]) await world.authorize(card, amount, `Store ${amount}`);
      });
    },
  },
  'card.auto_frozen': {
    how: 'authorizes the same spend twice with duplicate detection set to freeze_card',
    run: (world) => twice(world, { duplicateDetection: { enabled: true, windowMinutes: 10, action: 'freeze_card' } }),
  },
  'card.merchant_drift': {
    how: "authorizes at another merchant than a card's merchant hint (drift allowed)",
    async run(world) {
      const { card } = await world.holder({ agent: { policy: { onDrift: 'allow' } }, card: { merchantHint: 'AWS' } });
      await world.withRisk({}, () => world.authorize(card, 300, 'GCP'));
    },
  },
} satisfies Record<string, Recipe>;
