import { toIso, toIsoOrNull } from '../core/clock.js';
import type { AnyStoredEvent } from '../core/event-types.js';
import type { ApiSchemas } from '../core/stored.js';
import type { CardRecord, CardStatus } from '../domain/cards.js';
import type { VariantCodec } from './codec.js';
import { eventDataIn } from './event-data.js';
import { eventNaming } from '../core/event-naming.js';
import { renderPolicySummary } from './render/policy-summary.js';
import { renderList } from './render/list.js';
import { eventOperations, sharedOperations, webhookOperations } from './shared.js';

/**
 * The customer variant (`Authorization: Bearer`), the general description: customers, the card with `type`
 * (virtual or physical), `usage`, `expMonth`/`expYear`, a SpendingLimit and ISO 8601 timestamps; no
 * `notActivated` status; the general envelope (`createdAt` ISO 8601) and general event names. See docs/variants.md.
 */

/** The customer variant has no `notActivated`: such a card shows `active`. */
function cardStatus(status: CardStatus): Exclude<CardStatus, 'notActivated'> {
  return status === 'notActivated' ? 'active' : status;
}

function renderCard(card: CardRecord): ApiSchemas['Card'] {
  return {
    id: card.id,
    customerId: card.customerId,
    agentId: card.agentId,
    type: card.type,
    usage: card.usage,
    status: cardStatus(card.status),
    last4: card.last4,
    expMonth: card.expMonth,
    expYear: card.expYear,
    limits: card.limits,
    merchantLock: card.merchantLock,
    merchantHint: card.merchantHint,
    expiresAt: toIsoOrNull(card.expiresAt),
    lastSpendAt: toIsoOrNull(card.lastSpendAt),
    firstSpendAt: toIsoOrNull(card.firstSpendAt),
    singleUseConsumedAt: toIsoOrNull(card.singleUseConsumedAt),
    policy: card.policy,
    createdAt: toIso(card.createdAt),
  };
}

/** The general envelope: `createdAt` ISO 8601, the general name of the type. */
function renderEvent(event: AnyStoredEvent) {
  const type = eventNaming.nameIn('customer', event.type);
  if (type === undefined) return undefined;
  return { type, envelope: { id: event.id, type, createdAt: toIso(event.createdAt), data: eventDataIn('customer', event) } };
}

/**
 * The envelope of an event of this variant. Its data was typed by its type when it was emitted (EventData), and the
 * envelope pairs it with this variant's name of that type: the `Event` union is met by construction, which
 * TypeScript cannot follow through the name lookup.
 */
function envelopeOf(event: AnyStoredEvent): ApiSchemas['AnyEvent'] {
  const rendered = renderEvent(event);
  if (!rendered) throw new Error(`The customer variant has no event type ${event.type}.`);
  return rendered.envelope as ApiSchemas['AnyEvent'];
}

export const customerCodec = {
  variant: 'customer',
  aliases: {},
  renamedFields: {},
  cardStatus,
  renderEvent,
  operations: {
    ...sharedOperations,
    ...webhookOperations('customer'),
    ...eventOperations('customer', envelopeOf),
    // The customer card's create and update bodies are the neutral inputs as they are.
    createCard: { encode: renderCard },
    listCards: { encode: renderList(renderCard) },
    getCard: { encode: renderCard, storedRecord: true },
    updateCard: { encode: renderCard },
    freezeCard: { encode: renderCard },
    closeCard: { encode: renderCard },
    getCardPolicy: { encode: (result) => renderPolicySummary(result, cardStatus(result.card.status)) },
  },
} satisfies VariantCodec<'customer'>;
