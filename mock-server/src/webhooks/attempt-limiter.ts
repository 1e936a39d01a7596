/** A FIFO queue with O(1) push and shift (an array with a moving head, compacted as it drains). */
class Queue<T> {
  #items: T[] = [];
  #head = 0;

  get size(): number {
    return this.#items.length - this.#head;
  }

  push(item: T): void {
    this.#items.push(item);
  }

  shift(): T | undefined {
    if (this.#head >= this.#items.length) return undefined;
    const item = this.#items[this.#head] as T;
    this.#items[this.#head++] = undefined as T;
    if (this.#head > 1024 && this.#head * 2 > this.#items.length) {
      this.#items = this.#items.slice(this.#head);
      this.#head = 0;
    }
    return item;
  }

  drain(): T[] {
    const rest = this.#items.slice(this.#head);
    this.#items = [];
    this.#head = 0;
    return rest;
  }
}

interface Waiter {
  grant(): void;
  refuse(): void;
}

interface OriginSlots {
  active: number;
  waiting: Queue<Waiter>;
  /** In the `blocked` queue: it has waiters and room of its own, and waits for the global cap. */
  blocked: boolean;
}

/** What `acquire` resolves with: call it once the attempt is over. */
export type Release = () => void;

/** Raised to the attempts still queued when the limiter closes (shutdown): they were never started. */
export class LimiterClosedError extends Error {
  constructor() {
    super('webhook delivery stopped: the server is shutting down');
    this.name = 'LimiterClosedError';
  }
}

/**
 * Caps the webhook attempts in flight: at most `perOrigin` to one origin (a hanging receiver holds at most that many
 * connections) and `total` overall. An attempt over a cap waits in its origin's queue, first come first served, and
 * starts as soon as a slot frees; origins held back only by the global cap take turns.
 */
export class AttemptLimiter {
  readonly #origins = new Map<string, OriginSlots>();
  readonly #blocked = new Queue<string>();
  #active = 0;
  #closed = false;

  constructor(
    readonly perOrigin: number,
    readonly total: number,
  ) {}

  /** Attempts started and not yet released. */
  get active(): number {
    return this.#active;
  }

  acquire(origin: string): Promise<Release> {
    if (this.#closed) return Promise.reject(new LimiterClosedError());
    let slots = this.#origins.get(origin);
    if (!slots) {
      slots = { active: 0, waiting: new Queue<Waiter>(), blocked: false };
      this.#origins.set(origin, slots);
    }
    const own = slots;
    return new Promise<Release>((resolve, reject) => {
      const waiter: Waiter = {
        grant: () => {
          own.active++;
          this.#active++;
          let released = false;
          resolve(() => {
            if (released) return;
            released = true;
            this.#release(origin, own);
          });
        },
        refuse: () => reject(new LimiterClosedError()),
      };
      if (own.active < this.perOrigin && this.#active < this.total && own.waiting.size === 0) waiter.grant();
      else {
        own.waiting.push(waiter);
        this.#markBlocked(origin, own);
      }
    });
  }

  /** Refuses every queued attempt and every later one; those in flight finish. */
  close(): void {
    this.#closed = true;
    for (const slots of this.#origins.values()) for (const waiter of slots.waiting.drain()) waiter.refuse();
  }

  #release(origin: string, slots: OriginSlots): void {
    slots.active--;
    this.#active--;
    // Origins that were held back by the global cap first, then this origin's own queue.
    while (this.#active < this.total) {
      const next = this.#blocked.shift();
      if (next === undefined) break;
      const waiting = this.#origins.get(next);
      if (!waiting) continue;
      waiting.blocked = false;
      if (waiting.active < this.perOrigin) waiting.waiting.shift()?.grant();
      this.#markBlocked(next, waiting);
    }
    if (slots.active < this.perOrigin && this.#active < this.total) slots.waiting.shift()?.grant();
    this.#markBlocked(origin, slots);
    if (slots.active === 0 && slots.waiting.size === 0 && !slots.blocked) this.#origins.delete(origin);
  }

  #markBlocked(origin: string, slots: OriginSlots): void {
    if (!slots.blocked && slots.waiting.size > 0 && slots.active < this.perOrigin) {
      slots.blocked = true;
      this.#blocked.push(origin);
    }
  }
}
