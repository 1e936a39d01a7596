import type { Variant } from '../core/variant.js';
import type { EventRenderer } from '../webhooks/event-renderer.js';
import { customerCodec } from './customer.js';
import { userCodec } from './user.js';

/** Each variant's codec: everything that differs between the variants, by variant. */
export const codecs = { customer: customerCodec, user: userCodec } as const satisfies Record<Variant, { variant: Variant }>;

/**
 * The mock's EventRenderer (webhooks/event-renderer.ts): a stored event in the envelope and names of the variant a
 * webhook was created through, by that variant's codec (customer.ts, user.ts). composition/mock-server.ts hands it to the dispatcher.
 */
export const renderEvent: EventRenderer = (event, variant) => codecs[variant].renderEvent(event);
