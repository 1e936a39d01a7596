/**
 * A sorted set of numbers kept as a list of bounded chunks: insert, delete and seek cost O(log n) plus a bounded
 * chunk shift, and appending a new largest value (the common case: a new object) is O(1) amortized.
 * The `as number` casts read entries whose existence the surrounding bounds guarantee, which
 * noUncheckedIndexedAccess cannot follow.
 */
const MAX_CHUNK = 1024;
const HALF_CHUNK = MAX_CHUNK / 2;

/** Index of the first element >= value. */
function lowerBound(sorted: readonly number[], value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((sorted[mid] as number) < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export class SortedNumberList {
  readonly #chunks: number[][] = [];
  /** Last (largest) value of each chunk, for the binary search over chunks. */
  readonly #maxes: number[] = [];
  #size = 0;

  get size(): number {
    return this.#size;
  }

  /** Adds `value`; returns false when it was already present. */
  add(value: number): boolean {
    const chunks = this.#chunks;
    if (chunks.length === 0) {
      chunks.push([value]);
      this.#maxes.push(value);
      this.#size = 1;
      return true;
    }
    let ci = lowerBound(this.#maxes, value);
    if (ci === chunks.length) ci--;
    const chunk = chunks[ci] as number[];
    const pos = lowerBound(chunk, value);
    if (chunk[pos] === value) return false;
    if (pos === chunk.length) chunk.push(value);
    else chunk.splice(pos, 0, value);
    this.#maxes[ci] = chunk[chunk.length - 1] as number;
    this.#size++;
    if (chunk.length > MAX_CHUNK) {
      const right = chunk.splice(HALF_CHUNK);
      chunks.splice(ci + 1, 0, right);
      this.#maxes[ci] = chunk[chunk.length - 1] as number;
      this.#maxes.splice(ci + 1, 0, right[right.length - 1] as number);
    }
    return true;
  }

  /** Removes `value`; returns false when it was absent. */
  delete(value: number): boolean {
    const ci = lowerBound(this.#maxes, value);
    const chunk = this.#chunks[ci];
    if (chunk === undefined) return false;
    const pos = lowerBound(chunk, value);
    if (chunk[pos] !== value) return false;
    chunk.splice(pos, 1);
    this.#size--;
    if (chunk.length === 0) {
      this.#chunks.splice(ci, 1);
      this.#maxes.splice(ci, 1);
    } else {
      this.#maxes[ci] = chunk[chunk.length - 1] as number;
    }
    return true;
  }

  /** The smallest value, or undefined when empty. */
  first(): number | undefined {
    return this.#chunks[0]?.[0];
  }

  /** Up to `count` values strictly below `bound` (all values when undefined), largest first. */
  below(bound: number | undefined, count: number): number[] {
    const chunks = this.#chunks;
    const out: number[] = [];
    if (chunks.length === 0 || count <= 0) return out;
    let ci: number;
    let pos: number;
    const first = bound === undefined ? chunks.length : lowerBound(this.#maxes, bound);
    if (first === chunks.length) {
      ci = chunks.length - 1;
      pos = (chunks[ci] as number[]).length - 1;
    } else {
      ci = first;
      pos = lowerBound(chunks[ci] as number[], bound as number) - 1;
    }
    while (ci >= 0 && out.length < count) {
      const chunk = chunks[ci] as number[];
      while (pos >= 0 && out.length < count) out.push(chunk[pos--] as number);
      ci--;
      if (ci >= 0) pos = (chunks[ci] as number[]).length - 1;
    }
    return out;
  }
}
