import type { CustomerApi } from '@cardrail/spec';
import type { APIPromise } from '../core/api-promise.js';
import type { RequestOptions } from '../core/client-options.js';
import { sleep } from '../core/sleep.js';
import { CardrailError, RequestAbortedError, TimeoutError } from '../errors.js';

/** An intent as `intents.retrieve` answers it (the same shape in both variants). */
type Intent = CustomerApi.components['schemas']['Intent'];

/** Options of `intents.waitForDecision`. */
export interface WaitForDecisionOptions {
  /** The longest wait, in milliseconds; then `DecisionTimeoutError`. Default 300 000 (5 minutes). */
  timeoutMs?: number | undefined;
  /** Aborting ends the wait at once with `RequestAbortedError`. */
  signal?: AbortSignal | undefined;
  /**
   * The pause after the first read, in milliseconds (default 1 000). Each pause is 1.5 times the one before, up to
   * 10 seconds (or `pollIntervalMs` when larger), less up to 10 % jitter.
   */
  pollIntervalMs?: number | undefined;
  /** Called with the intent after each read that finds it still waiting (to report progress). */
  onPending?: ((intent: Intent) => void) | undefined;
}

const DEFAULT_DECISION_TIMEOUT_MS = 300_000;
const DEFAULT_POLL_INTERVAL_MS = 1_000;
const MAX_POLL_INTERVAL_MS = 10_000;
const BACKOFF = 1.5;

/**
 * `intents.waitForDecision` ran out of time: nobody approved or rejected the intent within `timeoutMs`. `intent` is
 * the intent as last read (still `pending_approval`): wait again, or remind the person who decides (its `approvalUrl`).
 */
export class DecisionTimeoutError extends CardrailError {
  override readonly name: string = 'DecisionTimeoutError';
  declare readonly code: 'decision_timeout';
  /** The intent waited on. */
  declare readonly intentId: string;
  /** The intent as last read, still waiting for a decision. */
  declare readonly intent: Intent;
  /** How long the wait lasted, in milliseconds. */
  declare readonly waitedMs: number;

  constructor(intent: Intent, waitedMs: number) {
    const where = intent.approvalUrl ? `, or ask the person who decides to open ${intent.approvalUrl}` : '';
    super({
      message: `Intent ${intent.id} is still pending_approval after ${Math.round(waitedMs / 1000)} s: nobody approved or rejected it yet. Wait again${where}.`,
      code: 'decision_timeout',
      details: { intentId: intent.id, status: intent.status },
    });
    this.intentId = intent.id;
    this.intent = intent;
    this.waitedMs = waitedMs;
  }
}

function checkDuration(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw new CardrailError({
      code: 'invalid_option',
      message: `waitForDecision: ${name} must be a finite number of milliseconds of at least 0, got ${String(value)}.`,
    });
  }
  return value;
}

/**
 * Reads the intent until it is no longer `pending_approval` (approved: `pending`, or `rejected`, `expired`, ...),
 * pausing longer after each read; resolves with it. Each read has the client's retries; the whole wait is bounded
 * by `timeoutMs`, a read under way included.
 */
export async function waitForDecision(
  retrieve: (intentId: string, options?: RequestOptions) => APIPromise<Intent>,
  intentId: string,
  options: WaitForDecisionOptions = {},
): Promise<Intent> {
  const timeoutMs = checkDuration('timeoutMs', options.timeoutMs, DEFAULT_DECISION_TIMEOUT_MS);
  const firstPause = checkDuration('pollIntervalMs', options.pollIntervalMs, DEFAULT_POLL_INTERVAL_MS);
  const longestPause = Math.max(firstPause, MAX_POLL_INTERVAL_MS);
  const started = Date.now();
  // One signal for the reads and the pauses: the caller's, or the deadline's.
  const stop = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    stop.abort();
  }, timeoutMs);
  const onAbort = () => stop.abort(options.signal?.reason);
  if (options.signal?.aborted) onAbort();
  else options.signal?.addEventListener('abort', onAbort, { once: true });
  let last: Intent | undefined;
  const outOfTime = (error: unknown): unknown => {
    if (options.signal?.aborted) return new RequestAbortedError({ cause: options.signal.reason });
    if (!timedOut) return error;
    const waited = Date.now() - started;
    if (last !== undefined) return new DecisionTimeoutError(last, waited);
    return new TimeoutError({ message: `Intent ${intentId} could not be read within the wait's ${waited} ms.` });
  };
  const { signal } = stop;
  try {
    for (let pause = firstPause; ; pause = Math.min(pause * BACKOFF, longestPause)) {
      last = await retrieve(intentId, { signal });
      if (last.status !== 'pending_approval') return last;
      options.onPending?.(last);
      await sleep(pause * (1 - Math.random() * 0.1), signal);
    }
  } catch (error) {
    throw outOfTime(error);
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
  }
}
