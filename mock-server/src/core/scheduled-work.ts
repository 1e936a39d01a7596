import type { EpochMs } from './clock.js';

/**
 * Work that falls due at an instant of a test clock (a webhook attempt, a card's TTL, an intent's expiry).
 * Tasks are synchronous state changes; one that starts I/O (a webhook POST) hands its promise to `track`
 * so an advance can wait for it without the causing request ever waiting.
 */
export type ScheduledTask = () => void;

/**
 * What a scheduled job is, as its label names it. Each kind is scheduled in one place, so a reader of `runDue` finds
 * the code a job runs: `webhook delivery <id>`, an attempt (webhooks/dispatcher.ts, #scheduleAutomatic); `card ttl
 * <id>`, a card's time-to-live (engine/ttl.ts); `intent expiry <id>` (engine/intents/intent-service.ts,
 * scheduleIntentExpiry). A new kind of scheduled work of the mock adds its label here; an extension's work may carry
 * any label (the type stays open for them), and `task` is the default for unnamed work.
 */
export type WorkLabel =
  | `webhook delivery ${string}`
  | `card ttl ${string}`
  | `intent expiry ${string}`
  | `payment token expiry ${string}`
  | `approver answer ${string}`
  | 'task'
  // Any other text, for extensions' work (`string & {}` keeps the names above in an editor's completions).
  | (string & {});

/** How long `POST /simulate/clock/advance` waits for the I/O it starts, by default (docs/test-helpers.md#the-test-clock). */
export const DEFAULT_ADVANCE_MAX_WAIT_MS = 30_000;

/** What an advance left unfinished when it stopped waiting at its limit (`Scheduler.advance`). */
export interface AdvanceResult {
  /** The labels of the I/O still without an outcome when it answered, in the order it started. */
  pending: WorkLabel[];
}

export interface ScheduledHandle {
  readonly dueAt: EpochMs;
  cancel(): void;
}

/**
 * How a scheduler whose organization is shared by several processes (a PostgreSQL state) runs: its timer's work and
 * its waits for I/O go through the organization's lock (core/state/org-gate.ts). Without them, as in one process.
 */
export interface SchedulerGate {
  /** The timer fired: run what is due, under the lock. */
  fire(): void;
  /** Waits for `wait` with the organization's lock let go meanwhile (the waiting request's changes committed first). */
  outside<T>(wait: () => Promise<T>): Promise<T>;
}
