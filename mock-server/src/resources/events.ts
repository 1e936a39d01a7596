import { EventLog } from '../core/event-log.js';
import { notFound } from '../core/errors.js';
import type { HandlerMap } from '../http/operation-handler.js';
import { listPage } from './pagination.js';

/** `GET /events` and `GET /events/{eventId}`, each event in the caller's variant envelope. */
export const eventHandlers: HandlerMap = {
  listEvents: (ctx) => ({
    body: listPage(
      ctx.tenant.events.events,
      ctx.query,
      (event) => ctx.services.renderEvent(event, ctx.variant)?.envelope,
      EventLog.visibleTo(ctx.variant, ctx.query.type as string | undefined),
    ),
  }),
  getEvent: (ctx) => {
    const event = ctx.tenant.events.get(ctx.params.eventId as string);
    const rendered = event ? ctx.services.renderEvent(event, ctx.variant) : undefined;
    if (!rendered) throw notFound();
    return { body: rendered.envelope };
  },
};
