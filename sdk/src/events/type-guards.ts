import type { CardrailEvent, CardrailEventOfType, CardrailEventType } from './cardrail-event.js';
import { CARDRAIL_EVENT_TYPES } from './event-types.js';

// Pure: a bundle that verifies deliveries without the guards drops the list of types with it.
const known: ReadonlySet<string> = /* @__PURE__ */ new Set(CARDRAIL_EVENT_TYPES);

/** Narrows an event to one type: `if (isEventType(event, 'card.frozen')) event.data.reason`. */
export function isEventType<Type extends CardrailEventType>(
  event: { type: string } | null | undefined,
  type: Type,
): event is CardrailEventOfType<Type> {
  return event?.type === type;
}

/** Whether a type string names an event this SDK version knows. */
export function isKnownEventType(type: string): type is CardrailEventType {
  return known.has(type);
}

/** One type guard per event type, keyed by the type (see `eventGuards`). */
export type EventGuards = {
  readonly [Type in CardrailEventType]: (event: CardrailEvent) => event is CardrailEventOfType<Type>;
};

/** One type guard per event type: `events.filter(eventGuards['transaction.declined'])`. */
export const eventGuards: EventGuards = /* @__PURE__ */ Object.fromEntries(
  // Marked pure too, so a bundle that never reads the guards drops the list of event types with them.
  /* @__PURE__ */ CARDRAIL_EVENT_TYPES.map((type) => [
    type,
    (event: CardrailEvent): event is CardrailEventOfType<typeof type> => event.type === type,
  ]),
  // fromEntries types its result by string keys; each key here is the type its guard narrows to.
) as EventGuards;
