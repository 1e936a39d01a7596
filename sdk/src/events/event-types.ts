import { eventTypes } from '@cardrail/spec/events';
import type { CardrailEventType, CustomerWebhookEventType, UserWebhookEventType } from './cardrail-event.js';

/**
 * Every event type at run time, from the spec's event lists (the generated types hold types only). The checks
 * below make the compiler reject a list that misses a type of the event unions or names one they do not have.
 */
export const CARDRAIL_EVENT_TYPES: readonly CardrailEventType[] = eventTypes;

type Listed = (typeof eventTypes)[number];
type Exact<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const listsEveryEventType: Exact<Listed, CardrailEventType> = true;
const unionsMatchWebhooks: Exact<CardrailEventType, CustomerWebhookEventType | UserWebhookEventType> = true;
void listsEveryEventType;
void unionsMatchWebhooks;
