import { isPromise } from '../is-promise.js';
/**
 * Group commit: the changes of every request answered while a batch is open are committed together, in one
 * transaction, and each of those answers leaves only after it (docs/standalone-server.md#group-commit). A store's
 * cost is mostly per transaction (writing the pages a commit touched, the log's frame headers, the commit count
 * beside the database), not per record, so a batch of twenty writes costs little more than one; and the promise stays
 * whole: no answer leaves before the commit that holds what it changed, or what it read.
 *
 * The batch closes when the store's `schedule` runs the commit it was handed: a synchronous store (SQLite) schedules it
 * once the current turn of the event loop is over, so every request whose bytes arrived in that turn is in it. A
 * store whose commit is a round trip returns a promise from `flush`; the changes made while one is in flight form the
 * next batch, committed as soon as it ends (the batching of a remote database: no timer needed).
 */
export class GroupCommit {
  /** The answers waiting for the batch that is open. */
  #waiting: (() => void)[] = [];
  #scheduled = false;
  /** Changes were made since the last commit began. */
  #dirty = false;
  /** The commit in flight, when `flush` returned a promise. */
  #inFlight: Promise<void> | undefined;

  constructor(
    /**
     * Commits every change made so far; a refusal is the flush's own to record (the waiters then read it), so this
     * does not throw. May return a promise: nothing else is flushed until it settles.
     */
    private readonly flush: () => void | Promise<void>,
    /** Runs the batch's commit when the batch closes (the store's `scheduleCommit`). */
    private readonly schedule: (commit: () => void) => void,
  ) {}

  /** Something changed: a commit is needed (scheduled once per batch). */
  changed(): void {
    this.#dirty = true;
    if (this.#scheduled || this.#inFlight) return;
    this.#scheduled = true;
    this.schedule(() => this.#close());
  }

  /** Resolves once everything changed before this call has been committed, or refused. */
  committed(): Promise<void> {
    const { promise, resolve } = withResolvers();
    this.#waiting.push(resolve);
    this.changed();
    return promise;
  }

  /** Resolves once nothing is waiting for a commit (a batch scheduled or in flight). */
  async settled(): Promise<void> {
    while (this.#scheduled || this.#inFlight) await this.committed();
  }

  #close(): void {
    this.#scheduled = false;
    this.#dirty = false;
    const waiting = this.#waiting;
    this.#waiting = [];
    let result: void | Promise<void>;
    try {
      result = this.flush();
    } catch {
      // A flush that throws has recorded nothing: the waiters are released all the same, and read the refusals.
      result = undefined;
    }
    if (!isPromise(result)) {
      for (const resolve of waiting) resolve();
      return;
    }
    this.#inFlight = result.then(
      () => this.#settle(waiting),
      () => this.#settle(waiting),
    );
  }

  #settle(waiting: (() => void)[]): void {
    this.#inFlight = undefined;
    for (const resolve of waiting) resolve();
    // What changed while the commit was in flight is the next batch.
    if (this.#dirty || this.#waiting.length > 0) this.changed();
  }
}

/** `Promise.withResolvers`, which Node.js 20 lacks. */
function withResolvers(): { promise: Promise<void>; resolve: () => void } {
  let resolve: () => void = () => undefined;
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}
