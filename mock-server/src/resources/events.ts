import { notFound } from '../core/errors.js';
import { EventLog } from '../core/event-log.js';
import type { NeutralHandlers } from '../operations/neutral.js';
import { listPage } from '../core/list-page.js';

/** `GET /events` and `GET /events/{eventId}`: the events the caller's variant has (the variant renders them). */
export const eventHandlers = {
  listEvents: (ctx) => listPage(ctx.tenant.events.events, ctx.query, EventLog.visibleTo(ctx.variant, ctx.query.type)),
  getEvent: (ctx) => {
    const event = ctx.tenant.events.get(ctx.params.eventId);
    // An event type the caller's variant does not have (`intent.created` for the user variant) does not exist for it.
    if (!event || !ctx.tenant.events.isVisibleTo(ctx.variant, event)) throw notFound();
    return event;
  },
} satisfies Partial<NeutralHandlers>;
