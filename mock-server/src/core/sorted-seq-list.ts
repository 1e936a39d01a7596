/** Anything kept in creation order: its sequence number orders it. */
export interface Sequenced {
  readonly seq: number;
}

/**
 * A set of entries sorted by sequence number, kept as a list of bounded chunks: insert, delete and seek cost
 * O(log n) plus a bounded chunk shift, and appending a new largest one (the common case: a new object) is O(1)
 * amortized. It holds the entries themselves, so a page reads its objects without a lookup per object.
 * The `as` casts read entries whose existence the surrounding bounds guarantee, which noUncheckedIndexedAccess
 * cannot follow.
 */
const MAX_CHUNK = 1024;
const HALF_CHUNK = MAX_CHUNK / 2;

/** Index of the first entry whose seq is >= seq. */
function lowerBound(sorted: readonly Sequenced[], seq: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((sorted[mid] as Sequenced).seq < seq) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Index of the first number >= value. */
function lowerBoundNumber(sorted: readonly number[], value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((sorted[mid] as number) < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export class SortedSeqList<E extends Sequenced> {
  readonly #chunks: E[][] = [];
  /** Last (largest) seq of each chunk, for the binary search over chunks. */
  readonly #maxes: number[] = [];
  #size = 0;

  get size(): number {
    return this.#size;
  }

  /** Adds `entry`; returns false when an entry with its seq was already present. */
  add(entry: E): boolean {
    const chunks = this.#chunks;
    const seq = entry.seq;
    const last = chunks.length - 1;
    if (last === -1) {
      chunks.push([entry]);
      this.#maxes.push(seq);
      this.#size = 1;
      return true;
    }
    // A new object: after every other, at the end of the last chunk.
    if (seq > (this.#maxes[last] as number)) {
      const chunk = chunks[last] as E[];
      chunk.push(entry);
      this.#maxes[last] = seq;
      this.#size++;
      if (chunk.length > MAX_CHUNK) this.#split(last);
      return true;
    }
    const ci = lowerBoundNumber(this.#maxes, seq);
    const chunk = chunks[ci] as E[];
    const pos = lowerBound(chunk, seq);
    if ((chunk[pos] as E).seq === seq) return false;
    chunk.splice(pos, 0, entry);
    this.#size++;
    if (chunk.length > MAX_CHUNK) this.#split(ci);
    return true;
  }

  #split(ci: number): void {
    const chunk = this.#chunks[ci] as E[];
    const right = chunk.splice(HALF_CHUNK);
    this.#chunks.splice(ci + 1, 0, right);
    this.#maxes[ci] = (chunk[chunk.length - 1] as E).seq;
    this.#maxes.splice(ci + 1, 0, (right[right.length - 1] as E).seq);
  }

  /** Removes the entry with this seq; returns false when there was none. */
  delete(seq: number): boolean {
    const ci = lowerBoundNumber(this.#maxes, seq);
    const chunk = this.#chunks[ci];
    if (chunk === undefined) return false;
    const pos = lowerBound(chunk, seq);
    if (chunk[pos]?.seq !== seq) return false;
    chunk.splice(pos, 1);
    this.#size--;
    if (chunk.length === 0) {
      this.#chunks.splice(ci, 1);
      this.#maxes.splice(ci, 1);
    } else {
      this.#maxes[ci] = (chunk[chunk.length - 1] as E).seq;
    }
    return true;
  }

  /** The entry with the smallest seq, or undefined when empty. */
  first(): E | undefined {
    return this.#chunks[0]?.[0];
  }

  /** Up to `count` entries whose seq is strictly below `bound` (all entries when undefined), largest first. */
  below(bound: number | undefined, count: number): E[] {
    const chunks = this.#chunks;
    const out: E[] = [];
    if (chunks.length === 0 || count <= 0) return out;
    let ci: number;
    let pos: number;
    const first = bound === undefined ? chunks.length : lowerBoundNumber(this.#maxes, bound);
    if (first === chunks.length) {
      ci = chunks.length - 1;
      pos = (chunks[ci] as E[]).length - 1;
    } else {
      ci = first;
      pos = lowerBound(chunks[ci] as E[], bound as number) - 1;
    }
    while (ci >= 0 && out.length < count) {
      const chunk = chunks[ci] as E[];
      while (pos >= 0 && out.length < count) out.push(chunk[pos--] as E);
      ci--;
      if (ci >= 0) pos = (chunks[ci] as E[]).length - 1;
    }
    return out;
  }
}
