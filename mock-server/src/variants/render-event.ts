import type { EventRenderer } from '../webhooks/event-renderer.js';
import { codecs } from './index.js';

/**
 * The mock's EventRenderer (webhooks/event-renderer.ts): a stored event in the envelope and names of the variant a
 * webhook was created through, by that variant's codec (customer.ts, user.ts). server.ts hands it to the dispatcher.
 */
export const renderEvent: EventRenderer = (event, variant) => codecs[variant].renderEvent(event);
