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

/** One organization's attempts to one origin: its own share of the origin's slots, and its queue. */
interface Flow {
  readonly organization: string;
  readonly origin: OriginSlots;
  active: number;
  readonly waiting: Queue<Waiter>;
  /** In its origin's `ready` ring: it has waiters and room under its own cap, and waits for the origin's. */
  ready: boolean;
}

interface OriginSlots {
  readonly name: string;
  active: number;
  readonly flows: Map<string, Flow>;
  /** The organizations waiting for a slot of this origin, in turn (one slot each, then to the back). */
  readonly ready: Queue<Flow>;
  /** In the limiter's `blocked` ring: it has ready flows and room of its own, and waits for the global cap. */
  blocked: boolean;
}

/** The three caps (docs/webhooks.md#connections). */
export interface AttemptLimits {
  /** Attempts in flight from one organization to one origin. */
  perOrganization: number;
  /** Attempts in flight to one origin, all organizations together (the sockets a hanging receiver can hold). */
  perOrigin: number;
  /** Attempts in flight overall (the sockets webhook delivery can hold). */
  total: number;
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
 * Caps the webhook attempts in flight, and shares them fairly: each organization has a share of its own of an origin
 * (`perOrganization`), so one organization's queue to a receiver that never answers never stands before another's;
 * an origin holds at most `perOrigin` slots across organizations, and delivery at most `total`. An attempt over a cap
 * waits in its organization's queue for that origin, first come first served; organizations waiting for the same
 * origin take turns, one slot each, and origins held back only by the global cap take turns too. Every step is O(1).
 */
export class AttemptLimiter {
  readonly #origins = new Map<string, OriginSlots>();
  readonly #blocked = new Queue<OriginSlots>();
  #active = 0;
  #closed = false;

  constructor(readonly limits: AttemptLimits) {}

  /** Attempts started and not yet released. */
  get active(): number {
    return this.#active;
  }

  /** A slot for an attempt of `organization` to `origin`, once the caps allow; in turn with the other waiters. */
  acquire(origin: string, organization: string): Promise<Release> {
    if (this.#closed) return Promise.reject(new LimiterClosedError());
    const flow = this.#flow(origin, organization);
    return new Promise<Release>((resolve, reject) => {
      flow.waiting.push({
        grant: () => {
          flow.active++;
          flow.origin.active++;
          this.#active++;
          let released = false;
          resolve(() => {
            if (released) return;
            released = true;
            this.#release(flow);
          });
        },
        refuse: () => reject(new LimiterClosedError()),
      });
      this.#offer(flow);
      this.#grantInTurn();
    });
  }

  /** Refuses every queued attempt and every later one; those in flight finish. */
  close(): void {
    this.#closed = true;
    for (const origin of this.#origins.values()) {
      for (const flow of origin.flows.values()) for (const waiter of flow.waiting.drain()) waiter.refuse();
    }
  }

  #flow(originName: string, organization: string): Flow {
    let origin = this.#origins.get(originName);
    if (!origin) {
      origin = { name: originName, active: 0, flows: new Map(), ready: new Queue<Flow>(), blocked: false };
      this.#origins.set(originName, origin);
    }
    let flow = origin.flows.get(organization);
    if (!flow) {
      flow = { organization, origin, active: 0, waiting: new Queue<Waiter>(), ready: false };
      origin.flows.set(organization, flow);
    }
    return flow;
  }

  #release(flow: Flow): void {
    const origin = flow.origin;
    flow.active--;
    origin.active--;
    this.#active--;
    this.#offer(flow);
    this.#markBlocked(origin);
    this.#grantInTurn();
    if (flow.active === 0 && flow.waiting.size === 0 && !flow.ready) origin.flows.delete(flow.organization);
    if (origin.active === 0 && origin.flows.size === 0 && !origin.blocked) this.#origins.delete(origin.name);
  }

  /** Puts a flow with waiters and room of its own in its origin's turn, and the origin in the global one. */
  #offer(flow: Flow): void {
    if (!flow.ready && flow.waiting.size > 0 && flow.active < this.limits.perOrganization) {
      flow.ready = true;
      flow.origin.ready.push(flow);
    }
    this.#markBlocked(flow.origin);
  }

  #markBlocked(origin: OriginSlots): void {
    if (!origin.blocked && origin.ready.size > 0 && origin.active < this.limits.perOrigin) {
      origin.blocked = true;
      this.#blocked.push(origin);
    }
  }

  /** While the global cap has room: one slot to the next origin in turn, to its next organization in turn. */
  #grantInTurn(): void {
    while (this.#active < this.limits.total) {
      const origin = this.#blocked.shift();
      if (origin === undefined) return;
      origin.blocked = false;
      const flow = origin.active < this.limits.perOrigin ? this.#nextReady(origin) : undefined;
      if (flow !== undefined) {
        (flow.waiting.shift() as Waiter).grant();
        this.#offer(flow);
      }
      this.#markBlocked(origin);
    }
  }

  #nextReady(origin: OriginSlots): Flow | undefined {
    for (;;) {
      const flow = origin.ready.shift();
      if (flow === undefined) return undefined;
      flow.ready = false;
      if (flow.waiting.size > 0 && flow.active < this.limits.perOrganization) return flow;
    }
  }
}
