import { SortedNumberList } from './sorted-number-list.js';
import { getOrCreate } from './get-or-create.js';

/** Extracts the value an object is filtered by (a list query parameter), or undefined when it has none. */
export type FilterKey<T> = (item: T) => string | undefined;

export interface CollectionOptions<T> {
  /** Filterable fields. Every combination of them gets its own ordered index, so any filtered page is O(log n). */
  filters?: Record<string, FilterKey<T>>;
}

export interface PageQuery {
  limit: number;
  /** Sequence number of the last object of the previous page; the page starts just below it. */
  before?: number | undefined;
  /** Exact-match filters by name, as declared in CollectionOptions.filters; undefined values are ignored. */
  where?: Record<string, string | undefined> | undefined;
}

export interface Page<T> {
  items: T[];
  /** Sequence number of the last item, to continue from, when more remain. */
  nextBefore: number | undefined;
  hasMore: boolean;
}

interface Entry<T> {
  seq: number;
  item: T;
  keys: string[];
}

/**
 * The objects of one type in one organization and mode: O(1) lookup by id, and newest-first pages (optionally
 * filtered) in O(log n + page). Objects are mutable records owned here; change them through `update` so the
 * filter indexes follow.
 */
export class Collection<T extends { id: string }> {
  readonly #byId = new Map<string, Entry<T>>();
  readonly #bySeq = new Map<number, Entry<T>>();
  readonly #all = new SortedNumberList();
  readonly #indexes = new Map<string, SortedNumberList>();
  readonly #filterNames: string[];
  readonly #filters: Record<string, FilterKey<T>>;

  constructor(
    private readonly nextSeq: () => number,
    options: CollectionOptions<T> = {},
  ) {
    this.#filters = options.filters ?? {};
    this.#filterNames = Object.keys(this.#filters);
  }

  get size(): number {
    return this.#byId.size;
  }

  get(id: string): T | undefined {
    return this.#byId.get(id)?.item;
  }

  has(id: string): boolean {
    return this.#byId.has(id);
  }

  /** Creation sequence number of an object (its position in newest-first order). */
  seqOf(id: string): number | undefined {
    return this.#byId.get(id)?.seq;
  }

  insert(item: T): T {
    if (this.#byId.has(item.id)) throw new Error(`Duplicate id ${item.id}`);
    const seq = this.nextSeq();
    const entry: Entry<T> = { seq, item, keys: this.#keysOf(item) };
    this.#byId.set(item.id, entry);
    this.#bySeq.set(seq, entry);
    this.#all.add(seq);
    for (const key of entry.keys) this.#index(key).add(seq);
    return item;
  }

  /** Applies `change` to the stored object and re-indexes it. Returns the object, or undefined when absent. */
  update(id: string, change: (item: T) => void): T | undefined {
    const entry = this.#byId.get(id);
    if (!entry) return undefined;
    change(entry.item);
    const keys = this.#keysOf(entry.item);
    if (keys.join('\n') !== entry.keys.join('\n')) {
      for (const key of entry.keys) this.#indexes.get(key)?.delete(entry.seq);
      for (const key of keys) this.#index(key).add(entry.seq);
      entry.keys = keys;
    }
    return entry.item;
  }

  delete(id: string): boolean {
    const entry = this.#byId.get(id);
    if (!entry) return false;
    this.#byId.delete(id);
    this.#bySeq.delete(entry.seq);
    this.#all.delete(entry.seq);
    for (const key of entry.keys) this.#indexes.get(key)?.delete(entry.seq);
    return true;
  }

  page(query: PageQuery): Page<T> {
    const key = this.#queryKey(query.where);
    const list = key === undefined ? this.#all : this.#indexes.get(key);
    if (!list) return { items: [], nextBefore: undefined, hasMore: false };
    const seqs = list.below(query.before, query.limit + 1);
    const hasMore = seqs.length > query.limit;
    if (hasMore) seqs.length = query.limit;
    const items = seqs.map((seq) => (this.#bySeq.get(seq) as Entry<T>).item);
    return { items, nextBefore: hasMore ? seqs[seqs.length - 1] : undefined, hasMore };
  }

  /** Every object matching `where`, newest first. For internal fan-out (e.g. an agent's cards), not for lists. */
  *values(where?: Record<string, string | undefined>): IterableIterator<T> {
    const key = this.#queryKey(where);
    const list = key === undefined ? this.#all : this.#indexes.get(key);
    if (!list) return;
    for (const seq of list.below(undefined, list.size)) yield (this.#bySeq.get(seq) as Entry<T>).item;
  }

  #index(key: string): SortedNumberList {
    return getOrCreate(this.#indexes, key, () => new SortedNumberList());
  }

  /** Index keys of an object: one per non-empty combination of its defined filter values. */
  #keysOf(item: T): string[] {
    const parts: string[] = [];
    for (const name of this.#filterNames) {
      const value = (this.#filters[name] as FilterKey<T>)(item);
      if (value !== undefined) parts.push(`${name}\u001e${value}`);
    }
    const keys: string[] = [];
    const combinations = 1 << parts.length;
    for (let mask = 1; mask < combinations; mask++) {
      keys.push(parts.filter((_, i) => mask & (1 << i)).join('\u001f'));
    }
    return keys;
  }

  #queryKey(where: Record<string, string | undefined> | undefined): string | undefined {
    if (!where) return undefined;
    const parts: string[] = [];
    for (const name of this.#filterNames) {
      const value = where[name];
      if (value !== undefined) parts.push(`${name}\u001e${value}`);
    }
    for (const name of Object.keys(where)) {
      if (where[name] !== undefined && !(name in this.#filters)) throw new Error(`Not a filter of this collection: ${name}`);
    }
    return parts.length === 0 ? undefined : parts.join('\u001f');
  }
}
