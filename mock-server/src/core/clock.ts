/**
 * Time in the mock. Every timestamp and every due-work decision reads a clock, never `Date.now()` directly,
 * so tests can freeze time or move it forward.
 */

/** Milliseconds since the Unix epoch. */
export type EpochMs = number;

/** Anything that tells the current time. */
export interface Clock {
  now(): EpochMs;
}

/** The server-wide source of time: the wall clock, or a fixed instant when frozen. */
export class BaseClock implements Clock {
  readonly #frozenAt: EpochMs | undefined;
  readonly #wall: () => EpochMs;

  constructor(options: { frozenAt?: Date | string | number | undefined; wall?: () => EpochMs } = {}) {
    this.#wall = options.wall ?? Date.now;
    this.#frozenAt = options.frozenAt === undefined ? undefined : toEpochMs(options.frozenAt);
  }

  /** True when time only moves by explicit advances (no due work runs on its own). */
  get frozen(): boolean {
    return this.#frozenAt !== undefined;
  }

  now(): EpochMs {
    return this.#frozenAt ?? this.#wall();
  }
}

/**
 * The test clock of one organization and mode: the base clock plus everything that organization advanced.
 * It never goes backwards.
 */
export class OffsetClock implements Clock {
  #offset: number;

  constructor(
    readonly base: BaseClock,
    initialOffsetMs = 0,
    /** Told after every move (a durable store saves the offset). */
    private readonly onMove?: () => void,
  ) {
    this.#offset = initialOffsetMs;
  }

  get offsetMs(): number {
    return this.#offset;
  }

  get frozen(): boolean {
    return this.base.frozen;
  }

  now(): EpochMs {
    return this.base.now() + this.#offset;
  }

  /** Moves this clock forward to `instant`; an instant in the past leaves it unchanged. */
  moveTo(instant: EpochMs): void {
    const delta = instant - this.now();
    if (delta > 0) {
      this.#offset += delta;
      this.onMove?.();
    }
  }

  /** Sets the offset as a stored copy has it (a shared store's organization refreshed in place), without telling. */
  adopt(offsetMs: number): void {
    this.#offset = offsetMs;
  }

  /** Adds `ms` to the offset (a restored tenant catching up with server-wide advances made while it was away). */
  shift(ms: number): void {
    if (ms <= 0) return;
    this.#offset += ms;
    this.onMove?.();
  }
}

function toEpochMs(value: Date | string | number): EpochMs {
  const ms = value instanceof Date ? value.getTime() : typeof value === 'number' ? value : Date.parse(value);
  if (!Number.isFinite(ms)) throw new TypeError(`Not a valid instant: ${String(value)}`);
  return ms;
}

const isoCache = new Map<EpochMs, string>();
const ISO_CACHE_SIZE = 4096;

/**
 * ISO 8601 text of an instant. Rendering an object formats each of its timestamps on every read, and the same few
 * instants recur (creation times of the objects being read), so recent results are kept.
 */
export function toIso(ms: EpochMs): string {
  let text = isoCache.get(ms);
  if (text === undefined) {
    text = new Date(ms).toISOString();
    // Dropping everything at the bound keeps the cache O(1) without an LRU's bookkeeping.
    if (isoCache.size >= ISO_CACHE_SIZE) isoCache.clear();
    isoCache.set(ms, text);
  }
  return text;
}

/** A nullable timestamp as the API writes it: ISO 8601, or null. */
export function toIsoOrNull(ms: EpochMs | null): string | null {
  return ms === null ? null : toIso(ms);
}
