import { sha256Hex } from './sha256.js';
import type { Clock, EpochMs } from './clock.js';

/** How long a key is remembered, on the test clock. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

/** A response as it was first sent, kept to be replayed byte for byte. */
export interface StoredResponse {
  /** The HTTP status code. */
  status: number;
  /** The answer's own headers as `[name, value]` pairs; `Request-Id` and rate-limit headers are added per reply. */
  headers: readonly (readonly [string, string])[];
  /** The body text as first sent. */
  body: string;
}

/** An `Idempotency-Key` the tenant remembers, with the answer a retry of the same request replays. */
export interface IdempotencyRecord {
  /** The `Idempotency-Key` header's value. */
  key: string;
  /**
   * SHA-256 (hex) of the first request's variant, method, path and JSON body value: the key sent with another
   * request is refused (`idempotency_key_reused`).
   */
  fingerprint: string;
  /** When the key is forgotten, in epoch milliseconds of the tenant's test clock (24 hours after first use). */
  expiresAt: number;
  /** The first answer, replayed byte for byte. */
  response: StoredResponse;
}

interface Entry {
  key: string;
  fingerprint: string;
  expiresAt: EpochMs;
  /** Settles with the first response; a concurrent duplicate waits on it instead of running twice. */
  response: Promise<StoredResponse | undefined>;
  /** The first response once it is known: what is saved and replayed. */
  settled?: StoredResponse | undefined;
}

export type IdempotencyLookup =
  | { kind: 'new'; complete(response: StoredResponse | undefined): void }
  | { kind: 'replay'; response: Promise<StoredResponse | undefined> }
  | { kind: 'reused' };

/** safe-stable-stringify, loaded with the first Idempotency-Key: nothing else needs it, and a server's start does not. */
let stableStringify: Promise<(value: unknown) => string | undefined> | undefined;

/** Hash of what makes two requests "the same": method, path and the body's JSON value (key order ignored). */
export async function requestFingerprint(method: string, path: string, body: unknown): Promise<string> {
  stableStringify ??= import('safe-stable-stringify').then((module) => module.stringify);
  const stringify = await stableStringify;
  return sha256Hex(`${method} ${path}\n${stringify(body) ?? 'null'}`);
}

/**
 * Idempotency keys of one organization and mode. Entries expire 24 h after first use on the test clock; expired
 * ones are pruned from the front of an insertion-ordered map (insertion order is expiry order, as the clock
 * never goes back), so each request costs O(1) amortized.
 */
export class IdempotencyCache {
  readonly #entries = new Map<string, Entry>();

  constructor(
    private readonly clock: Clock,
    /** Told the key of every answer remembered and of every key forgotten at expiry (a durable store follows both). */
    private readonly onChanged?: (key: string) => void,
  ) {}

  /** The remembered answers, oldest first (keys whose first request is still running are not saved). */
  records(): IdempotencyRecord[] {
    const out: IdempotencyRecord[] = [];
    for (const entry of this.#entries.values()) {
      if (entry.settled)
        out.push({ key: entry.key, fingerprint: entry.fingerprint, expiresAt: entry.expiresAt, response: entry.settled });
    }
    return out;
  }

  /** One remembered answer, for a durable store. */
  record(key: string): IdempotencyRecord | undefined {
    const entry = this.#entries.get(key);
    return entry?.settled
      ? { key: entry.key, fingerprint: entry.fingerprint, expiresAt: entry.expiresAt, response: entry.settled }
      : undefined;
  }

  /** Puts back saved answers (in expiry order, which pruning relies on); expired ones are dropped. */
  restore(records: readonly IdempotencyRecord[]): void {
    const now = this.clock.now();
    for (const record of [...records].sort((a, b) => a.expiresAt - b.expiresAt)) {
      if (record.expiresAt <= now) continue;
      this.#entries.set(record.key, {
        key: record.key,
        fingerprint: record.fingerprint,
        expiresAt: record.expiresAt,
        response: Promise.resolve(record.response),
        settled: record.response,
      });
    }
  }

  /**
   * A stored copy brought up to date (a shared store's organization refreshed in place): each saved answer put back,
   * each forgotten key dropped; `whole` drops every saved answer first. Keys whose first request still runs are kept.
   */
  adopt(records: readonly IdempotencyRecord[], forgotten: readonly string[], whole: boolean): void {
    const kept = new Map<string, IdempotencyRecord>();
    for (const [key, entry] of this.#entries) {
      if (!entry.settled) continue;
      if (!whole) kept.set(key, { key, fingerprint: entry.fingerprint, expiresAt: entry.expiresAt, response: entry.settled });
      this.#entries.delete(key);
    }
    for (const key of forgotten) kept.delete(key);
    for (const record of records) kept.set(record.key, record);
    this.restore([...kept.values()]);
  }

  begin(key: string, fingerprint: string): IdempotencyLookup {
    this.#prune();
    const existing = this.#entries.get(key);
    if (existing) {
      return existing.fingerprint === fingerprint ? { kind: 'replay', response: existing.response } : { kind: 'reused' };
    }
    let resolve!: (response: StoredResponse | undefined) => void;
    const response = new Promise<StoredResponse | undefined>((r) => (resolve = r));
    const entry: Entry = { key, fingerprint, expiresAt: this.clock.now() + IDEMPOTENCY_TTL_MS, response };
    this.#entries.set(key, entry);
    return {
      kind: 'new',
      complete: (stored) => {
        // A response that is not worth replaying (a server error, a rate limit) frees the key for a retry.
        if (stored === undefined) this.#entries.delete(key);
        else {
          entry.settled = stored;
          this.onChanged?.(key);
        }
        resolve(stored);
      },
    };
  }

  #prune(): void {
    const now = this.clock.now();
    for (const [key, entry] of this.#entries) {
      if (entry.expiresAt > now) break;
      this.#entries.delete(key);
      if (entry.settled) this.onChanged?.(key);
    }
  }
}
