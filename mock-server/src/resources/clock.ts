import type { NeutralHandlers } from '../operations/neutral.js';
import { deliveriesAmong } from '../webhooks/attempt-label.js';

/** The most deliveries an advance's answer lists as still pending (the spec's `maxItems`). */
const MAX_PENDING_LISTED = 100;

/** The organization's test clock (test mode only; the HTTP layer refuses live keys for `/simulate/*`). */
export const clockHandlers = {
  getClock: (ctx) => ctx.tenant.clock,
  advanceClock: async (ctx) => {
    // Due work runs in time order, each job at its own instant, before the answer; the wait for the webhook attempts
    // it starts is bounded (docs/test-helpers.md#the-test-clock), so a receiver that never answers cannot hold it.
    const { pending } = await ctx.tenant.scheduler.advance(ctx.body.seconds * 1000, {
      maxWaitMs: ctx.services.clockAdvanceMaxWaitMs,
    });
    return { clock: ctx.tenant.clock, pendingDeliveries: deliveriesAmong(pending).slice(0, MAX_PENDING_LISTED) };
  },
} satisfies Partial<NeutralHandlers>;
