import type { TriggerWorld } from './world.js';

/** How one event type is made to happen, through the API. */
export interface Recipe {
  /** One line for `cardrail-mock trigger --list`: what the trigger does. */
  how: string;
  /**
   * Test-clock time the recipe lets pass: a short span can be waited for in real time; an `advanceOnly` one is too
   * long and moves the organization's clock for good.
   */
  time?: { seconds: number; advanceOnly?: boolean };
  run(world: TriggerWorld): Promise<void>;
}

/** The shortest time-to-live of a card or an intent: one minute. */
export const TTL_SECONDS = 60;

/** An intent on a fresh holder's card; `approval` makes its agent require approval. */
export async function declareIntent(world: TriggerWorld, options: { approval?: boolean; ttlMinutes?: number } = {}) {
  const { card } = await world.holder(options.approval ? { agent: { policy: { requireApproval: true } } } : {});
  const created = await world.client.intents.create({
    cardId: card,
    summary: 'Triggered purchase',
    expectedAmount: 2_000,
    currency: 'usd',
    expectedMerchant: 'Example Store',
    ...(options.ttlMinutes === undefined ? {} : { ttlMinutes: options.ttlMinutes }),
  });
  world.step(`declared intent ${created.id} (${created.status})`);
  return { card, intent: created.id };
}
