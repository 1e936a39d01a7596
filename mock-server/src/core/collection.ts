import { forgetRecordText } from './record-text.js';
import { SortedSeqList } from './sorted-seq-list.js';

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

/**
 * Told the id and sequence number of every record inserted, updated or deleted: what a change journal writes (a
 * deleted record's sequence number is what a store finds it by).
 */
export type ChangeObserver = (id: string, seq: number) => void;

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

/** The index lists an object is filed in: one per indexed combination of its filter values. */
interface Filing<T> {
  readonly lists: readonly SortedSeqList<Entry<T>>[];
}

interface Entry<T> {
  readonly seq: number;
  readonly item: T;
  /** Shared by every object with the same filter values; replaced, never changed, when they change. */
  filing: Filing<T>;
}

/** A trie over filter values (one level per filter, in declaration order) whose leaves are filings. */
type FilingNode<T> = Map<string | undefined, FilingNode<T> | Filing<T>>;

/**
 * The objects of one type in one organization and mode: O(1) lookup by id, and newest-first pages (optionally
 * filtered) in O(log n + page). Objects are mutable records owned here; change them through `update` so the
 * filter indexes, the change journal and the texts kept for reads (record-text.ts) follow.
 *
 * (The `as` casts below read entries whose existence the surrounding bounds or index guarantee, which
 * noUncheckedIndexedAccess cannot follow.)
 */
export class Collection<T extends { id: string }> {
  readonly #byId = new Map<string, Entry<T>>();
  readonly #all = new SortedSeqList<Entry<T>>();
  readonly #indexes = new Map<string, SortedSeqList<Entry<T>>>();
  readonly #filterNames: string[];
  readonly #filters: Record<string, FilterKey<T>>;
  readonly #getters: FilterKey<T>[];
  /** Each indexed combination as positions into #filterNames, ascending. */
  readonly #combinations: number[][];
  readonly #indexedKeys: Set<string> | undefined;
  /**
   * The filing of each combination of filter values met so far. Objects with the same values (events of one type,
   * a card's transactions of one status) share one: an insert looks its lists up without building or hashing a key
   * string, and keeps no array of its own. It grows with the distinct combinations, as the index lists do.
   */
  readonly #filings: FilingNode<T> = new Map();
  readonly #unfiled: Filing<T> = { lists: [] };

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
    const seq = this.nextSeq();
    this.#place(seq, item);
    this.observe?.(item.id, seq);
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
    const entries = all.below(undefined, all.size).reverse();
    for (const entry of entries) {
      // Deleted while the walk was under way.
      if (this.#byId.get(entry.item.id) === entry) yield [entry.seq, entry.item];
    }
  }

  /** The oldest record, or undefined when there is none. */
  oldest(): T | undefined {
    return this.#all.first()?.item;
  }

  #place(seq: number, item: T): void {
    const entry: Entry<T> = { seq, item, filing: this.#filingOf(item) };
    this.#byId.set(item.id, entry);
    this.#all.add(entry);
    const lists = entry.filing.lists;
    for (let i = 0; i < lists.length; i++) (lists[i] as SortedSeqList<Entry<T>>).add(entry);
  }

  /** Applies `change` to the stored object and re-indexes it. Returns the object, or undefined when absent. */
  update(id: string, change: (item: T) => void): T | undefined {
    const entry = this.#byId.get(id);
    if (!entry) return undefined;
    forgetRecordText(entry.item);
    change(entry.item);
    this.observe?.(id, entry.seq);
    const filing = this.#filingOf(entry.item);
    if (filing !== entry.filing) {
      for (const list of entry.filing.lists) list.delete(entry.seq);
      for (const list of filing.lists) list.add(entry);
      entry.filing = filing;
    }
    return entry.item;
  }

  delete(id: string): boolean {
    const entry = this.#byId.get(id);
    if (!entry) return false;
    this.#unplace(entry);
    this.observe?.(id, entry.seq);
    return true;
  }

  /** A shared copy refreshed in place: the record put back under its seq, or removed (`item` undefined); unreported. */
  adopt(id: string, seq: number, item: T | undefined): void {
    const entry = this.#byId.get(id);
    if (entry) this.#unplace(entry);
    if (item !== undefined) this.#place(seq, item);
  }

  /** Every record removed, not reported as a change (a stored copy read again whole). */
  clear(): void {
    for (const entry of [...this.#byId.values()]) this.#unplace(entry);
  }

  #unplace(entry: Entry<T>): void {
    forgetRecordText(entry.item);
    this.#byId.delete(entry.item.id);
    this.#all.delete(entry.seq);
    for (const list of entry.filing.lists) list.delete(entry.seq);
  }

  page(query: PageQuery): Page<T> {
    const key = this.#queryKey(query.where);
    const list = key === undefined ? this.#all : this.#indexes.get(key);
    if (!list) return { items: [], nextBefore: undefined, hasMore: false };
    const entries = list.below(query.before, query.limit + 1);
    const hasMore = entries.length > query.limit;
    if (hasMore) entries.length = query.limit;
    const items = new Array<T>(entries.length);
    for (let i = 0; i < entries.length; i++) items[i] = (entries[i] as Entry<T>).item;
    return { items, nextBefore: hasMore ? (entries[entries.length - 1] as Entry<T>).seq : undefined, hasMore };
  }

  /** Every object matching `where`, newest first. For internal fan-out (e.g. an agent's cards), not for lists. */
  *values(where?: Record<string, string | undefined>): IterableIterator<T> {
    const key = this.#queryKey(where);
    const list = key === undefined ? this.#all : this.#indexes.get(key);
    if (!list) return;
    for (const entry of list.below(undefined, list.size)) {
      // Deleted while the walk was under way.
      if (this.#byId.get(entry.item.id) === entry) yield entry.item;
    }
  }

  /** The filing of an object's current filter values: found in the trie, made on the first object with them. */
  #filingOf(item: T): Filing<T> {
    const getters = this.#getters;
    const last = getters.length - 1;
    if (last === -1) return this.#unfiled;
    let node = this.#filings;
    for (let i = 0; i < last; i++) {
      const value = (getters[i] as FilterKey<T>)(item);
      let next = node.get(value) as FilingNode<T> | undefined;
      if (next === undefined) {
        next = new Map();
        node.set(value, next);
      }
      node = next;
    }
    const value = (getters[last] as FilterKey<T>)(item);
    let filing = node.get(value) as Filing<T> | undefined;
    if (filing === undefined) {
      filing = this.#newFiling(item);
      node.set(value, filing);
    }
    return filing;
  }

  /** The lists of an object's filter values: one per indexed combination whose values are all defined. */
  #newFiling(item: T): Filing<T> {
    const parts = this.#getters.map((getter, i) => {
      const value = getter(item);
      return value === undefined ? undefined : `${this.#filterNames[i] as string}\u001e${value}`;
    });
    const keys: string[] = [];
    combinations: for (const positions of this.#combinations) {
      const joined: string[] = [];
      for (const position of positions) {
        const part = parts[position];
        if (part === undefined) continue combinations;
        joined.push(part);
      }
      keys.push(joined.join('\u001f'));
    }
    return { lists: keys.map((key) => this.#index(key)) };
  }

  #index(key: string): SortedSeqList<Entry<T>> {
    // Called only when a new combination of filter values is filed: setting an existing list again costs nothing.
    const list = this.#indexes.get(key) ?? new SortedSeqList<Entry<T>>();
    this.#indexes.set(key, list);
    return list;
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
