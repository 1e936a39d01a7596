import type { NeutralHandlers } from '../operations/neutral.js';

/** The organization's test clock (test mode only; the HTTP layer refuses live keys for `/simulate/*`). */
export const clockHandlers = {
  getClock: (ctx) => ctx.tenant.clock,
  advanceClock: async (ctx) => {
    // Due work runs in time order, each job at its own instant, before the answer.
    await ctx.tenant.scheduler.advance(ctx.body.seconds * 1000);
    return ctx.tenant.clock;
  },
} satisfies Partial<NeutralHandlers>;
