import type { IdempotencyRecord } from '../idempotency.js';
import type { TenantHeader, TenantSnapshot } from './model.js';

/**
 * What a tenant reaches of its organization's lock when several processes share the state (a PostgreSQL state,
 * org-gate.ts): work that continues after I/O (a webhook attempt's claim and outcome) runs under the lock on the copy as
 * it stands then, a request waiting for I/O lets the lock go meanwhile, and scheduled work is claimed by one process.
 * Generic in the tenant so that core/tenant.ts can name it without importing what implements it.
 */
export interface TenantGate<T> {
  /**
   * Runs `work` under the organization's lock, on the tenant of that key as it stands then (refreshed from the store),
   * and resolves with its result once what it changed is committed; undefined when the tenant is gone (a reset).
   * Rejects when the commit is refused.
   */
  inside<R>(tenant: T, work: (tenant: T) => R): Promise<R | undefined>;
  /**
   * Waits for `wait` outside the lock: the caller (a request holding the lock) leaves its batch, which commits, and
   * enters again once `wait` settles. Resolves with its result; rejects when that commit was refused.
   */
  outside<R>(tenant: T, wait: () => Promise<R>): Promise<R>;
  /** A scheduler timer fired: its due work runs under the lock. */
  fire(tenant: T): void;
  /**
   * Takes the claim of a piece of work (a webhook attempt) for `leaseMs` of the database's wall clock, written with the
   * batch that is open; undefined when another process (or another attempt here) holds it and it has not expired.
   * Call under the lock.
   */
  claim(tenant: T, work: string, leaseMs: number): WorkClaim | undefined;
  /** Whether the claim is still this one (fencing: another process may have taken it over after it expired). */
  holds(tenant: T, claim: WorkClaim): boolean;
  /** Gives a claim back, with the batch that is open. */
  release(tenant: T, claim: WorkClaim): void;
}

/** A claim on a piece of scheduled work (TenantGate.claim). */
export interface WorkClaim {
  readonly work: string;
  readonly token: string;
}

/**
 * Stored records put into a tenant in memory (a shared store's copy brought up to date in place, or a saved tenant
 * restored): the object stays, its records follow the store.
 */
export interface TenantUpdate {
  /** Every record and idempotency key is replaced: the collections are emptied first. */
  whole: boolean;
  header: TenantHeader;
  /** Records put back: collection, sequence number, record. */
  puts: [string, number, { id: string }][];
  /** Records gone: collection, id. */
  deletes: [string, string][];
  idempotency: IdempotencyRecord[];
  /** Idempotency keys forgotten. */
  forgotten: string[];
}

/** A saved tenant as the update that puts it into a new tenant. */
export function updateOf(snapshot: TenantSnapshot): TenantUpdate {
  const { collections, idempotency, ...header } = snapshot;
  const puts = Object.entries(collections).flatMap(([name, entries]) =>
    entries.map(([seq, record]): [string, number, { id: string }] => [name, seq, record as { id: string }]),
  );
  return { whole: false, header, puts, deletes: [], idempotency, forgotten: [] };
}
