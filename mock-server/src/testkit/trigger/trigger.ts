import { CardrailUsers, type CustomerEvent, type UserEvent } from '@cardrail/sdk';
import { type EventTypeName, eventNaming } from '../../core/event-naming.js';
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

/**
 * Makes one event of `type` (as the client's variant names it) happen in the client's organization, through its
 * API: creates what the event needs (an owner with money, an agent, a card, an intent...) and drives the operation
 * that emits it, so that the organization's webhooks receive the real, signed event. Resolves with that event as
 * `GET /events` answers it; refuses a type the variant does not have with a TypeError.
 */
export async function triggerEvent(
  client: TriggerClient,
  type: string,
  options: TriggerWorldOptions = {},
): Promise<Triggered<CustomerEvent | UserEvent>> {
  const world = new TriggerWorld(client, options);
  const recipe = recipeFor(world.variant, type);
  if (recipe === undefined) {
    throw new TypeError(
      `${type} is not an event type of the ${world.variant} variant (its names: cardrail-mock trigger --list --variant ${world.variant}).`,
    );
  }
  const before = await newestEvent(client, type);
  await recipe.run(world);
  const event = await newestEvent(client, type);
  if (event === undefined || event.id === before?.id) {
    throw new Error(`Triggering ${type} did not emit it (steps: ${world.steps.join('; ')}).`);
  }
  return { event, steps: world.steps };
}

/** The newest event of `type` (a name of the client's variant: the recipe lookup has checked it), as `GET /events` answers it. */
async function newestEvent(client: TriggerClient, type: string): Promise<CustomerEvent | UserEvent | undefined> {
  // Each variant's event list takes its own names; the branches say which names `type` is among.
  if (client instanceof CardrailUsers) {
    return isListedType('user', type) ? (await client.events.list({ type, limit: 1 })).data[0] : undefined;
  }
  return isListedType('customer', type) ? (await client.events.list({ type, limit: 1 })).data[0] : undefined;
}

/** An event type of the variant (not `*`, which no event has). */
function isListedType<V extends Variant>(variant: V, type: string): type is Exclude<EventTypeName<V>, '*'> {
  return type !== '*' && eventNaming.isTypeName(variant, type);
}
