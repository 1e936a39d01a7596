import {
  STATE_FORMAT,
  STATE_VERSION,
  type MockSnapshot,
  type StateLine,
  type TenantHeader,
  type TenantSnapshot,
} from './model.js';
import type { IdempotencyRecord } from '../idempotency.js';
import type { RandomPosition } from '../seeded-random.js';

interface TenantDraft {
  header: TenantHeader;
  collections: Map<string, Map<string, [number, unknown]>>;
  idempotency: Map<string, IdempotencyRecord>;
}

/**
 * Applies state lines, in order, to a plain snapshot: how the mock turns its state into `snapshot()` JSON, and how
 * a store that keeps commits reads them back.
 */
export class SnapshotBuilder {
  #sharedOffsetMs = 0;
  #random: RandomPosition | null = null;
  readonly #tenants = new Map<string, TenantDraft>();

  apply(line: StateLine): void {
    switch (line[0]) {
      case 'server':
        this.#sharedOffsetMs = line[1].sharedOffsetMs;
        this.#random = line[1].random;
        return;
      case 'tenant': {
        const draft = this.#tenants.get(line[1]);
        if (draft) draft.header = line[2];
        else this.#tenants.set(line[1], { header: line[2], collections: new Map(), idempotency: new Map() });
        return;
      }
      case 'put': {
        const [, key, collection, seq, record] = line;
        const draft = this.#draft(key);
        let records = draft.collections.get(collection);
        if (!records) {
          records = new Map();
          draft.collections.set(collection, records);
        }
        records.set((record as { id: string }).id, [seq, record]);
        return;
      }
      case 'delete':
        this.#tenants.get(line[1])?.collections.get(line[2])?.delete(line[3]);
        return;
      case 'idempotency':
        this.#draft(line[1]).idempotency.set(line[2].key, line[2]);
        return;
      case 'forget':
        this.#tenants.get(line[1])?.idempotency.delete(line[2]);
        return;
      case 'due':
        return;
      case 'reset':
        this.#tenants.clear();
        this.#sharedOffsetMs = 0;
        this.#random = null;
        return;
    }
  }

  /** Forgets a tenant (one that a later line brings back whole). */
  drop(key: string): void {
    this.#tenants.delete(key);
  }

  /** How many records the state holds so far (all collections of all tenants). */
  get recordCount(): number {
    let count = 0;
    for (const draft of this.#tenants.values()) for (const records of draft.collections.values()) count += records.size;
    return count;
  }

  toSnapshot(): MockSnapshot {
    return {
      format: STATE_FORMAT,
      version: STATE_VERSION,
      sharedOffsetMs: this.#sharedOffsetMs,
      random: this.#random,
      tenants: [...this.#tenants.values()].map(tenantSnapshot),
    };
  }

  #draft(key: string): TenantDraft {
    const draft = this.#tenants.get(key);
    if (!draft) throw new Error(`The state changes tenant ${key} before it is declared.`);
    return draft;
  }
}

function tenantSnapshot(draft: TenantDraft): TenantSnapshot {
  return {
    ...draft.header,
    // Empty collections are left out.
    collections: Object.fromEntries(
      [...draft.collections]
        .filter(([, records]) => records.size > 0)
        .map(([name, records]) => [name, [...records.values()].sort((a, b) => a[0] - b[0])]),
    ),
    idempotency: [...draft.idempotency.values()].sort((a, b) => a.expiresAt - b.expiresAt),
  };
}
