import type { AnyStoredEvent } from '../core/event-types.js';
import type { Variant } from '../core/variant.js';

/** A stored event as one variant sends it: its type name there and the envelope. */
export interface RenderedEvent {
  type: string;
  envelope: unknown;
}

/**
 * Renders a stored event for a variant, or undefined when that variant has no such event type. The dispatcher is
 * given one when it is made: the mock's is `renderEvent` of variants/index.ts (each variant's codec), handed
 * in by composition/mock-server.ts, since the variants sit above the webhooks in the layers (docs/architecture.md).
 */
export type EventRenderer = (event: AnyStoredEvent, variant: Variant) => RenderedEvent | undefined;
