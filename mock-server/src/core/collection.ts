import { SortedNumberList } from './sorted-number-list.js';

/** Extracts the value an object is filtered by (a list query parameter), or undefined when it has none. */
export type FilterKey<T> = (item: T) => string | undefined;

export interface CollectionOptions<T> {
  /** Filterable fields. Every indexed combination of them gets its own ordered index, so a filtered page is O(log n). */
  filters?: Record<string, FilterKey<T>>;
  /**
   * The combinations of filters that lists query, when not all of them: each index costs every insert, so a
   * collection written on every request (events) names the few it reads. Default: every combination.
   */
  indexes?: readonly (readonly string[])[];
  /**
   * Records older than `ms` on the tenant's test clock are dropped, oldest first (events and delivery records:
   * docs/events.md#retention). `at` gives a record's time; records are assumed to arrive in time order.
   */
  retention?: { ms: number; at: (item: T) => number } | undefined;
}

/** Told the id of every record inserted, updated or deleted: what a change journal writes. */
export type ChangeObserver = (id: string) => void;

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
 *
 * (The `as` casts below read entries whose existence the surrounding bounds or index guarantee, which
 * noUncheckedIndexedAccess cannot follow.)
 */
export class Collection<T extends { id: string }> {
  readonly #byId = new Map<string, Entry<T>>();
  readonly #bySeq = new Map<number, Entry<T>>();
  readonly #all = new SortedNumberList();
  readonly #indexes = new Map<string, SortedNumberList>();
  readonly #filterNames: string[];
  readonly #filters: Record<string, FilterKey<T>>;
  readonly #getters: FilterKey<T>[];
  /** Each indexed combination as positions into #filterNames, ascending. */
  readonly #combinations: number[][];
  readonly #indexedKeys: Set<string> | undefined;
  /**
   * Per filter, its value -> index-key part. Reusing one string per value spares building and hashing a new key
   * string for every insert (events are inserted several per request, all with the same few values).
   */
  readonly #parts: Map<string, string>[];

  readonly retention: CollectionOptions<T>['retention'];

  constructor(
    private readonly nextSeq: () => number,
    options: CollectionOptions<T> = {},
    private readonly observe?: ChangeObserver,
  ) {
    this.retention = options.retention;
    this.#filters = options.filters ?? {};
    this.#filterNames = Object.keys(this.#filters);
    this.#getters = this.#filterNames.map((name) => this.#filters[name] as FilterKey<T>);
    this.#parts = this.#filterNames.map(() => new Map<string, string>());
    if (options.indexes) {
      this.#combinations = options.indexes.map((names) =>
        names
          .map((name) => {
            const position = this.#filterNames.indexOf(name);
            if (position === -1) throw new Error(`Not a filter of this collection: ${name}`);
            return position;
          })
          .sort((a, b) => a - b),
      );
      this.#indexedKeys = new Set(this.#combinations.map((positions) => positions.join(',')));
    } else {
      this.#combinations = [];
      for (let mask = 1; mask < 1 << this.#filterNames.length; mask++) {
        this.#combinations.push(this.#filterNames.map((_, i) => i).filter((i) => mask & (1 << i)));
      }
      this.#indexedKeys = undefined;
    }
  }

  get size(): number {
    return this.#byId.size;
  }

  get(id: string): T | undefined {
    return this.#byId.get(id)?.item;
  }

  insert(item: T): T {
    if (this.#byId.has(item.id)) throw new Error(`Duplicate id ${item.id}`);
    this.#place(this.nextSeq(), item);
    this.observe?.(item.id);
    return item;
  }

  /** Puts back a record with the sequence number it had (restoring a snapshot): indexed, not reported as a change. */
  restore(seq: number, item: T): void {
    if (this.#byId.has(item.id)) throw new Error(`Duplicate id ${item.id}`);
    this.#place(seq, item);
  }

  /** The record's sequence number (its creation order in the tenant), or undefined when absent. */
  seqOf(id: string): number | undefined {
    return this.#byId.get(id)?.seq;
  }

  /** Every record with its sequence number, oldest first. */
  *entries(): IterableIterator<[number, T]> {
    const all = this.#all;
    const seqs = all.below(undefined, all.size).reverse();
    for (const seq of seqs) {
      const entry = this.#bySeq.get(seq);
      // Deleted while the walk was under way.
      if (entry) yield [seq, entry.item];
    }
  }

  /** The oldest record, or undefined when there is none. */
  oldest(): T | undefined {
    const seq = this.#all.first();
    return seq === undefined ? undefined : this.#bySeq.get(seq)?.item;
  }

  #place(seq: number, item: T): void {
    const entry: Entry<T> = { seq, item, keys: this.#keysOf(item) };
    this.#byId.set(item.id, entry);
    this.#bySeq.set(seq, entry);
    this.#all.add(seq);
    for (const key of entry.keys) this.#index(key).add(seq);
  }

  /** Applies `change` to the stored object and re-indexes it. Returns the object, or undefined when absent. */
  update(id: string, change: (item: T) => void): T | undefined {
    const entry = this.#byId.get(id);
    if (!entry) return undefined;
    change(entry.item);
    this.observe?.(id);
    const keys = this.#keysOf(entry.item);
    if (!sameKeys(keys, entry.keys)) {
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
    this.observe?.(id);
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
    let list = this.#indexes.get(key);
    if (list === undefined) {
      list = new SortedNumberList();
      this.#indexes.set(key, list);
    }
    return list;
  }

  /** Index keys of an object: one per indexed combination whose filter values are all defined. */
  #keysOf(item: T): string[] {
    const getters = this.#getters;
    const keys: string[] = [];
    if (getters.length === 0) return keys;
    const parts: (string | undefined)[] = new Array<string | undefined>(getters.length);
    for (let i = 0; i < getters.length; i++) {
      const value = (getters[i] as FilterKey<T>)(item);
      parts[i] = value === undefined ? undefined : this.#part(i, value);
    }
    combinations: for (const positions of this.#combinations) {
      let key = '';
      for (const position of positions) {
        const part = parts[position];
        if (part === undefined) continue combinations;
        key = key === '' ? part : `${key}\u001f${part}`;
      }
      keys.push(key);
    }
    return keys;
  }

  #part(position: number, value: string): string {
    const known = this.#parts[position] as Map<string, string>;
    let part = known.get(value);
    if (part === undefined) {
      part = `${this.#filterNames[position] as string}\u001e${value}`;
      known.set(value, part);
    }
    return part;
  }

  #queryKey(where: Record<string, string | undefined> | undefined): string | undefined {
    if (!where) return undefined;
    const parts: string[] = [];
    const positions: number[] = [];
    this.#filterNames.forEach((name, position) => {
      const value = where[name];
      if (value === undefined) return;
      parts.push(`${name}\u001e${value}`);
      positions.push(position);
    });
    for (const name of Object.keys(where)) {
      if (where[name] !== undefined && !(name in this.#filters)) throw new Error(`Not a filter of this collection: ${name}`);
    }
    if (parts.length === 0) return undefined;
    if (this.#indexedKeys && !this.#indexedKeys.has(positions.join(','))) {
      throw new Error(`No index for the filters ${positions.map((p) => this.#filterNames[p]).join(' + ')}`);
    }
    return parts.join('\u001f');
  }
}

function sameKeys(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
