export type {
  CardrailEvent,
  CardrailEventOfType,
  CardrailEventType,
  CustomerEvent,
  CustomerEventType,
  UserEvent,
  UserEventType,
} from './cardrail-event.js';
export { CARDRAIL_EVENT_TYPES } from './event-types.js';
export { eventGuards, isEventType, isKnownEventType, type EventGuards } from './type-guards.js';
