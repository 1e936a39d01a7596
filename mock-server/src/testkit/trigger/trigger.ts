import { eventNaming } from '../../core/event-naming.js';
import type { Variant } from '../../core/variant.js';
import type { Recipe } from './recipe.js';
import { RECIPES } from './recipes.js';
import { type TriggerClient, TriggerWorld, type TriggerWorldOptions } from './world.js';

/** The event types a variant's webhooks receive, as it names them, in its spec's order. */
export function triggerableTypes(variant: Variant): readonly string[] {
  return [...eventNaming.typesOf(variant)];
}

/** The recipe of an event type as a variant names it; undefined for a type the variant does not have. */
export function recipeFor(variant: Variant, type: string): Recipe | undefined {
  const stored = eventNaming.storedTypeOf(variant, type);
  return stored === undefined ? undefined : RECIPES[stored];
}

/** What a trigger did: the event it caused (as `GET /events` answers it) and every step it took to get there. */
export interface Triggered<Event> {
  event: Event;
  steps: readonly string[];
}

/** What `GET /events` answers, as the trigger reads it in either variant. */
interface EventReader<Event> {
  list(query: { type: string; limit: number }): Promise<{ data: Event[] }>;
}

/**
 * Makes one event of `type` (as the client's variant names it) happen in the client's organization, through its
 * API: creates what the event needs (an owner with money, an agent, a card, an intent...) and drives the operation
 * that emits it, so that the organization's webhooks receive the real, signed event. Resolves with that event as
 * `GET /events` answers it; refuses a type the variant does not have with a TypeError.
 */
export async function triggerEvent<Event extends { id: string; type: string }>(
  client: TriggerClient,
  type: string,
  options: TriggerWorldOptions = {},
): Promise<Triggered<Event>> {
  const world = new TriggerWorld(client, options);
  const recipe = recipeFor(world.variant, type);
  if (recipe === undefined) {
    throw new TypeError(
      `${type} is not an event type of the ${world.variant} variant (its names: cardrail-mock trigger --list --variant ${world.variant}).`,
    );
  }
  // Both variants' event lists take a type filter; their query types differ only in which names they accept.
  const events = client.events as unknown as EventReader<Event>;
  const [before] = (await events.list({ type, limit: 1 })).data;
  await recipe.run(world);
  const [event] = (await events.list({ type, limit: 1 })).data;
  if (event === undefined || event.id === before?.id) {
    throw new Error(`Triggering ${type} did not emit it (steps: ${world.steps.join('; ')}).`);
  }
  return { event, steps: world.steps };
}
