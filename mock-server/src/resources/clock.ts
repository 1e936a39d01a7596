import { toIso } from '../core/clock.js';
import type { Tenant } from '../core/tenant.js';
import type { HandlerMap } from '../http/operation-handler.js';

function renderClock(tenant: Tenant): Record<string, unknown> {
  return {
    now: toIso(tenant.now()),
    frozen: tenant.clock.frozen,
    offsetSeconds: Math.floor(tenant.clock.offsetMs / 1000),
  };
}

/** The organization's test clock (test mode only; the HTTP layer refuses live keys for `/simulate/*`). */
export const clockHandlers: HandlerMap = {
  getClock: (ctx) => ({ body: renderClock(ctx.tenant) }),
  advanceClock: async (ctx) => {
    // Due work runs in time order, each job at its own instant, before the answer.
    await ctx.tenant.scheduler.advance((ctx.body.seconds as number) * 1000);
    return { body: renderClock(ctx.tenant) };
  },
};
