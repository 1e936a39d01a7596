import type { BaseClock } from './clock.js';
import type { MockState } from './state/mock-state.js';

/** The test clocks, server-wide. */
export interface ServerClock {
  /**
   * With a key: that organization's test-clock time (what its events and webhook signatures carry). Without:
   * the base time (wall time, or the frozen instant) plus every server-wide advance.
   */
  now(apiKey?: string): Date;
  /** Whether the clocks were frozen (`frozenClock`): they then move only when advanced. */
  readonly frozen: boolean;
  /** Advances every organization's test clock by `seconds`, running due work in time order in each. */
  advance(seconds: number): Promise<void>;
}

/** `mock.clock`: every organization's test clock, read by key or moved all at once. */
export function createServerClock(baseClock: BaseClock, state: MockState): ServerClock {
  return {
    now: (apiKey) => {
      const { directory } = state;
      // A shared store's organizations are made only under their lock (a request): here a key is only looked up.
      const find = state.durable.shared ? directory.known.bind(directory) : directory.authenticate.bind(directory);
      const tenant = apiKey === undefined ? undefined : find(apiKey)?.tenant;
      return new Date(tenant ? tenant.now() : baseClock.now() + directory.sharedOffsetMs);
    },
    get frozen() {
      return baseClock.frozen;
    },
    async advance(seconds) {
      const ms = seconds * 1000;
      // Several processes share the state: the advance is stored, and each organization catches up under its lock.
      if (state.durable.shared) return state.durable.shared.advance(ms);
      // Organizations kept out of memory with work due within the advance come in first, to run it in time order.
      state.durable.beforeAdvance(ms);
      const { directory } = state;
      directory.sharedOffsetMs += ms;
      for (const tenant of [...directory.tenants()]) {
        await tenant.scheduler.advance(ms);
        tenant.prune();
      }
      state.durable.commit();
    },
  };
}
