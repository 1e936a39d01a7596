import { toIso } from '../core/clock.js';
import type { MockEvent } from '../core/event-log.js';
import type { Variant } from '../core/variant.js';
import type { EventRenderer } from '../webhooks/dispatcher.js';
import type { EventNaming } from './naming.js';

/**
 * Renders a stored event in a variant's envelope: the general envelope (`createdAt` ISO 8601, general type
 * names) for the customer variant, the event-catalog envelope (`organizationId`, `createdAt` epoch ms) for the
 * user variant. The same event id in both.
 */
export function createEventRenderer(naming: EventNaming): EventRenderer {
  return (event: MockEvent, variant: Variant) => {
    const type = naming.nameIn(variant, event.type);
    if (type === undefined) return undefined;
    if (variant === 'customer') {
      return {
        type,
        envelope: { id: event.id, type, createdAt: toIso(event.createdAt), data: event.generalData ?? event.data },
      };
    }
    return {
      type,
      envelope: { id: event.id, type, organizationId: event.organizationId, createdAt: event.createdAt, data: event.data },
    };
  };
}
