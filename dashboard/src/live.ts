// Events as they happen: one poll of `GET /events` every two seconds (the same API, key and validation as every other
// call), newest first. Views subscribe to reload what the new events changed; the page asks for a poll at once after
// each of its own actions.
import type { DashboardApi, DashboardEvent } from './api.js';

export const POLL_INTERVAL_MS = 2_000;
/** Events kept for the page (the events view reads `GET /events` itself for older ones). */
const KEPT = 200;

export type FeedListener = (fresh: readonly DashboardEvent[]) => void;

export class EventFeed {
  readonly #api: DashboardApi;
  readonly #listeners = new Set<FeedListener>();
  #events: DashboardEvent[] = [];
  #primed = false;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #polling: Promise<void> | undefined;
  #stopped = false;
  /** The last poll's failure, or undefined once a poll succeeds again. */
  error: unknown;

  constructor(api: DashboardApi) {
    this.#api = api;
  }

  /** The newest events seen, newest first. */
  get events(): readonly DashboardEvent[] {
    return this.#events;
  }

  start(): void {
    this.#stopped = false;
    void this.poll();
  }

  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#timer);
  }

  subscribe(listener: FeedListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Polls now (or joins the poll under way) and resolves once it is done. */
  poll(): Promise<void> {
    this.#polling ??= this.#pollOnce().finally(() => {
      this.#polling = undefined;
      if (!this.#stopped) {
        clearTimeout(this.#timer);
        this.#timer = setTimeout(() => void this.poll(), POLL_INTERVAL_MS);
      }
    });
    return this.#polling;
  }

  async #pollOnce(): Promise<void> {
    // A hidden tab waits; it catches up on its first poll once visible again.
    if (this.#primed && globalThis.document?.visibilityState === 'hidden') return;
    let fresh: DashboardEvent[];
    try {
      fresh = this.#primed ? await this.#api.eventsSince(this.#events[0]?.id ?? null) : await this.#api.events();
      this.error = undefined;
    } catch (error) {
      this.error = error;
      for (const listener of this.#listeners) listener([]);
      return;
    }
    const first = !this.#primed;
    this.#primed = true;
    this.#events = [...fresh, ...this.#events].slice(0, KEPT);
    // The first page is what was there before the page opened: nothing new for the views, which loaded it themselves.
    for (const listener of this.#listeners) listener(first ? [] : fresh);
  }
}
