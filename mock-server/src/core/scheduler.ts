import type { EpochMs, OffsetClock } from './clock.js';
import TinyQueue from 'tinyqueue';
import type { AdvanceResult, ScheduledHandle, ScheduledTask, SchedulerGate, WorkLabel } from './scheduled-work.js';

export {
  type AdvanceResult,
  DEFAULT_ADVANCE_MAX_WAIT_MS,
  type ScheduledHandle,
  type ScheduledTask,
  type SchedulerGate,
  type WorkLabel,
} from './scheduled-work.js';

interface Job {
  dueAt: EpochMs;
  seq: number;
  label: WorkLabel;
  run: ScheduledTask;
  cancelled: boolean;
  /** Not derived from the records: kept when a shared store's copy is refreshed (clearDerived). */
  kept: boolean;
}

/**
 * The due work of one organization and mode, ordered by time (ties in scheduling order).
 * `runDue` runs what is due now; `advance` moves the clock forward job by job, so each job sees the clock at
 * its own due time, and waits for the I/O the jobs started before it moves past it.
 */
export class Scheduler {
  // Earliest due first; ties in scheduling order. tinyqueue measured as fast as the hand-written heap it replaced.
  #heap = new TinyQueue<Job>([], (a, b) => a.dueAt - b.dueAt || a.seq - b.seq);
  /** Started I/O, by the promise that settles with it, and what it is (the label of the job that started it). */
  readonly #inFlight = new Map<Promise<unknown>, WorkLabel>();
  #seq = 0;
  #running = false;
  #advancing: Promise<void> = Promise.resolve();
  #timer: ReturnType<typeof setTimeout> | undefined;
  #timerDueAt: EpochMs | undefined;
  #disposed = false;
  #stopped = false;

  constructor(
    private readonly clock: OffsetClock,
    private readonly gate?: SchedulerGate,
    private readonly onError: (error: unknown, label: string) => void = (error) => {
      console.error('[cardrail-mock] scheduled work failed', error);
    },
  ) {}

  /**
   * Runs `run` when the clock reaches `dueAt` (at once on the next `runDue` if already past). `kept`: work not armed
   * again from the records by a restore hook, which a refresh of a shared store's copy must not drop.
   */
  schedule(dueAt: EpochMs, run: ScheduledTask, label: WorkLabel = 'task', options: { kept?: boolean } = {}): ScheduledHandle {
    const job: Job = { dueAt, seq: this.#seq++, label, run, cancelled: false, kept: options.kept === true };
    this.#heap.push(job);
    this.#armTimer();
    return {
      dueAt,
      cancel: () => {
        job.cancelled = true;
      },
    };
  }

  /** Registers I/O a job started, so `advance` and `idle` can wait for it; `label` names it in an advance's result. */
  track(promise: Promise<unknown>, label: WorkLabel = 'task'): void {
    const settled = promise.then(
      () => undefined,
      () => undefined,
    );
    this.#inFlight.set(settled, label);
    void settled.then(() => {
      this.#inFlight.delete(settled);
      this.#armTimer();
    });
  }

  /** Whether any job is pending or any started I/O unfinished (an idle tenant's scheduler is not busy). */
  get busy(): boolean {
    return this.nextDueAt() !== undefined || this.#inFlight.size > 0;
  }

  /** Whether I/O a job started (a webhook attempt) is still unfinished. */
  get working(): boolean {
    return this.#inFlight.size > 0;
  }

  /** Whether a pending job is due at the current time (it runs on the next `runDue`). */
  get dueNow(): boolean {
    const dueAt = this.nextDueAt();
    return dueAt !== undefined && dueAt <= this.clock.now();
  }

  /**
   * When this scheduler next has work, for a store that wakes tenants out of memory: now while I/O a job started is
   * unfinished (a webhook attempt cut short by the process ending is made again), else the earliest job's due time.
   */
  resumeAt(): EpochMs | undefined {
    const dueAt = this.nextDueAt();
    if (this.#inFlight.size === 0) return dueAt;
    const now = this.clock.now();
    return dueAt === undefined ? now : Math.min(dueAt, now);
  }

  /** Due time of the earliest pending job. */
  nextDueAt(): EpochMs | undefined {
    this.#dropCancelled();
    return this.#heap.peek()?.dueAt;
  }

  /** Runs every job due at the current time, in time order. Never waits for I/O. */
  runDue(): void {
    if (this.#running || this.#stopped) return;
    this.#running = true;
    try {
      for (;;) {
        this.#dropCancelled();
        const job = this.#heap.peek();
        if (!job || job.dueAt > this.clock.now()) break;
        this.#heap.pop();
        this.#run(job);
      }
    } finally {
      this.#running = false;
    }
    this.#armTimer();
  }

  /**
   * Moves the clock forward by `ms`, running every job due on the way at its own due time, and waiting for the
   * I/O those jobs started (a webhook attempt's outcome decides when the next one is due). Concurrent advances
   * of one clock run one after the other. With `maxWaitMs`, it waits for I/O at most that much real time from this
   * call (its turn behind another advance included): then it runs the jobs still due at once, in time order, moves
   * the clock to its target all the same, and answers with the I/O left unfinished (whatever that I/O schedules
   * when it ends runs on the next `runDue`, a timer, or another advance).
   */
  advance(ms: number, options: { maxWaitMs?: number | undefined } = {}): Promise<AdvanceResult> {
    const deadline = options.maxWaitMs === undefined ? undefined : performance.now() + options.maxWaitMs;
    // The turn behind another advance is waited for outside the organization's lock: the advance before this one may
    // be waiting outside it for its I/O, which cannot end while this request holds the lock (a shared store's batch).
    const previous = this.#advancing;
    const run = this.#outside(() => previous).then(() => this.#advanceBy(ms, deadline));
    this.#advancing = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  /** Resolves once no job is due now and no started I/O is pending. */
  async idle(): Promise<void> {
    for (;;) {
      this.runDue();
      if (this.#inFlight.size === 0) return;
      await Promise.all(this.#inFlight.keys());
    }
  }

  /** Runs nothing more (shutting down): pending jobs stay where they are, the timer stops, started I/O goes on. */
  stop(): void {
    this.#stopped = true;
    this.#disposed = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  /** Resolves once the I/O started so far has finished (whatever it schedules is not run). */
  async settled(): Promise<void> {
    while (this.#inFlight.size > 0) await Promise.all(this.#inFlight.keys());
  }

  /** Drops the work the restore hooks arm again from the records (a shared store's copy refreshed in place). */
  clearDerived(): void {
    const kept = new TinyQueue<Job>([], (a, b) => a.dueAt - b.dueAt || a.seq - b.seq);
    for (let job = this.#heap.pop(); job; job = this.#heap.pop()) if (job.kept && !job.cancelled) kept.push(job);
    this.#heap = kept;
  }

  /**
   * Moves the clock forward by `ms` at once, running each job due on the way at its own due time (a shared store's
   * copy catching up with a server-wide advance another process made); started I/O is not waited for.
   */
  catchUp(ms: number): void {
    const target = this.clock.offsetMs + ms;
    for (let job = this.#peek(); job && job.dueAt <= this.clock.base.now() + target; job = this.#peek()) {
      this.clock.moveTo(job.dueAt);
      this.#heap.pop();
      this.#run(job);
    }
    this.clock.shift(target - this.clock.offsetMs);
    this.#armTimer();
  }

  /** Drops all pending work and stops the timer. */
  dispose(): void {
    this.#disposed = true;
    this.#heap = new TinyQueue<Job>([], (a, b) => a.dueAt - b.dueAt || a.seq - b.seq);
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  async #advanceBy(ms: number, deadline: number | undefined): Promise<AdvanceResult> {
    // The advance adds exactly `ms` to the offset: on a clock that runs with wall time, the time spent running the
    // due jobs must not come out of it (an advance of an hour reads as an hour, however long its jobs took).
    // What is left to add is kept, not the target: while this advance waits outside the lock, another process may
    // advance the same clock, and both advances count.
    let left = ms;
    let waiting = true;
    for (;;) {
      this.#dropCancelled();
      const job = this.#heap.peek();
      if (job && job.dueAt <= this.clock.base.now() + this.clock.offsetMs + left) {
        // Results of started I/O may schedule work before this job; settle them before time moves on.
        if (waiting && this.#inFlight.size > 0 && job.dueAt > this.clock.now()) {
          waiting = await this.#outside(() => this.#settleInFlight(deadline));
          continue;
        }
        const before = this.clock.offsetMs;
        this.clock.moveTo(job.dueAt);
        left -= this.clock.offsetMs - before;
        this.#heap.pop();
        this.#run(job);
        continue;
      }
      if (waiting && this.#inFlight.size > 0) {
        waiting = await this.#outside(() => this.#settleInFlight(deadline));
        continue;
      }
      break;
    }
    this.clock.shift(left);
    this.#armTimer();
    return { pending: [...this.#inFlight.values()] };
  }

  /** Waits for the I/O in flight: true once it settled, false when the deadline (real time) came first. */
  async #settleInFlight(deadline: number | undefined): Promise<boolean> {
    const all = Promise.all(this.#inFlight.keys()).then(() => true);
    if (deadline === undefined) return all;
    const left = deadline - performance.now();
    if (left <= 0) return false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const expired = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), left);
    });
    try {
      return await Promise.race([all, expired]);
    } finally {
      clearTimeout(timer);
    }
  }

  #run(job: Job): void {
    try {
      job.run();
    } catch (error) {
      this.onError(error, job.label);
    }
  }

  #dropCancelled(): void {
    while (this.#heap.peek()?.cancelled) this.#heap.pop();
  }

  #peek(): Job | undefined {
    this.#dropCancelled();
    return this.#heap.peek();
  }

  #outside<T>(wait: () => Promise<T>): Promise<T> {
    return this.gate ? this.gate.outside(wait) : wait();
  }

  /** On a running (not frozen) clock, due work also runs when real time reaches it. */
  #armTimer(): void {
    if (this.#disposed || this.clock.frozen) return;
    const dueAt = this.nextDueAt();
    if (dueAt === undefined) return;
    if (this.#timer && this.#timerDueAt === dueAt) return;
    if (this.#timer) clearTimeout(this.#timer);
    const delay = Math.min(Math.max(dueAt - this.clock.now(), 0), 2 ** 31 - 1);
    this.#timerDueAt = dueAt;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#timerDueAt = undefined;
      if (this.gate) this.gate.fire();
      else this.runDue();
    }, delay);
    // A pending retry hours away must not keep a test process or CLI alive.
    this.#timer.unref?.();
  }
}
