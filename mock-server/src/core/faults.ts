import type { Mode } from './event-types.js';
import { seededRandom } from './seeded-random.js';

/** The error statuses a fault can answer with, each in the API's error format. */
export const FAULT_STATUSES = [429, 500, 502, 503] as const;
/** An error status a fault can answer with: 429, 500, 502 or 503, each in the API's error format. */
export type FaultStatus = 429 | 500 | 502 | 503;

/** What a fault does to the requests it matches. */
interface FaultEffect {
  /** Answer this status, in the error format (429 and 503 with `Retry-After`), instead of (or, `afterCommit`, after) running the request. */
  status?: FaultStatus | undefined;
  /** Seconds of `Retry-After` on a 429 or 503. */
  retryAfterSeconds: number;
  /** Real milliseconds to wait before answering (or dropping). */
  delayMs: number;
  /** Close the connection without an answer (in-process: the fetch rejects as a network error does). */
  drop: boolean;
  /** Never answer: the request is held until its client gives up (its timeout or abort), or the fault is cleared. */
  hang: boolean;
  /** Run the request (its changes are kept, its answer remembered under its Idempotency-Key), then fail its answer. */
  afterCommit: boolean;
}

/** Which requests a fault matches: every condition given must hold. */
interface FaultScope {
  /** The SHA-256 digest of the key that scopes the fault to its organization and mode. */
  keyDigest?: string | undefined;
  /** An operationId (of either variant). */
  operation?: string | undefined;
  /** A request path without `/v1` (`/cards/card_123`), or a spec path template (`/cards/{cardId}`). */
  path?: string | undefined;
}

/** A fault as registered: what it matches, what it does, and how often. */
export interface FaultRule extends FaultScope, FaultEffect {
  id: string;
  /** Matching requests left to fault; undefined: every one until cleared. */
  remaining: number | undefined;
  /** The chance that a matching request is faulted (1: every one). */
  rate: number;
  /** The seed of `rate`'s draws, so a run faults the same requests each time. */
  seed: string;
  /** Requests faulted so far. */
  hits: number;
}

/** What the pipeline knows of a request when it looks for a fault, before anything of the request runs. */
export interface FaultProbe {
  operationId: string | undefined;
  /** The spec's path template of the matched route (`/cards/{cardId}`). */
  template: string;
  /** The request's path without `/v1`. */
  path: string;
  /** The digest of the key the request presents, computed only when a fault is scoped by key. */
  keyDigest: () => string | undefined;
  /** The organization and mode of a known key digest, without creating anything. */
  tenantOfDigest: (digest: string) => { organizationId: string; mode: Mode } | undefined;
}

/** A request held by a `hang` fault; `release` ends it (as a dropped connection). */
interface Held {
  ruleId: string;
  release(): void;
}

/**
 * The faults of one mock, in the order they were injected: the first whose scope matches a request (and whose draw
 * hits, at its rate) decides what happens to it. Empty, it costs a request one size check.
 */
export class FaultRegistry {
  readonly #rules = new Map<string, FaultRule & { draw: () => number }>();
  readonly #held = new Set<Held>();

  get size(): number {
    return this.#rules.size;
  }

  add(rule: Omit<FaultRule, 'hits'>): FaultRule {
    const random = seededRandom(rule.seed);
    // 32 random bits as a fraction of 2^32: a uniform draw in [0, 1).
    const draw = () => new DataView(random(4).buffer).getUint32(0) / 2 ** 32;
    const stored = { ...rule, hits: 0, draw };
    this.#rules.set(rule.id, stored);
    return stored;
  }

  get(id: string): FaultRule | undefined {
    return this.#rules.get(id);
  }

  list(): FaultRule[] {
    return [...this.#rules.values()];
  }

  /** Removes one fault (true when it was still active) and releases the requests it holds. */
  remove(id: string): boolean {
    const removed = this.#rules.delete(id);
    this.#release((held) => held.ruleId === id);
    return removed;
  }

  /** Removes every fault and releases every held request. */
  clear(): void {
    this.#rules.clear();
    this.#release(() => true);
  }

  /** The fault that takes this request, counted as a hit (and used up after its `times`), or undefined. */
  take(probe: FaultProbe): FaultRule | undefined {
    for (const rule of this.#rules.values()) {
      if (!matches(rule, probe)) continue;
      if (rule.rate < 1 && rule.draw() >= rule.rate) continue;
      rule.hits++;
      if (rule.remaining !== undefined && --rule.remaining <= 0) this.#rules.delete(rule.id);
      return rule;
    }
    return undefined;
  }

  /** Keeps a held request until `release` (its client went away, or the faults were cleared). */
  hold(held: Held): () => void {
    this.#held.add(held);
    return () => this.#held.delete(held);
  }

  #release(which: (held: Held) => boolean): void {
    for (const held of [...this.#held]) {
      if (!which(held)) continue;
      this.#held.delete(held);
      held.release();
    }
  }
}

function matches(rule: FaultScope, probe: FaultProbe): boolean {
  if (rule.operation !== undefined && rule.operation !== probe.operationId) return false;
  if (rule.path !== undefined && rule.path !== (rule.path.includes('{') ? probe.template : probe.path)) return false;
  if (rule.keyDigest === undefined) return true;
  const presented = probe.keyDigest();
  if (presented === undefined) return false;
  if (presented === rule.keyDigest) return true;
  // Another key of the same organization and mode is in scope too.
  const scoped = probe.tenantOfDigest(rule.keyDigest);
  const own = scoped && probe.tenantOfDigest(presented);
  return own !== undefined && scoped !== undefined && own.organizationId === scoped.organizationId && own.mode === scoped.mode;
}

/**
 * What a transport does with a dropped or abandoned request: the Node server closes the connection without an answer,
 * `mock.handle` rejects as fetch does on a network error, MSW answers `Response.error()`.
 */
export class ConnectionDropped extends Error {
  constructor(readonly faultId: string) {
    super(`The connection was dropped by the mock's fault ${faultId} (mock.faults.inject with drop or hang).`);
    this.name = 'ConnectionDropped';
  }
}
