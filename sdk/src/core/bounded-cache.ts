/**
 * A map of at most `max` entries that drops the least recently used one: what is derived from a webhook secret (an
 * imported HMAC key, decoded key bytes) is kept per secret, and an application verifying for many endpoints cannot
 * grow it without limit. Deleting and re-inserting an entry moves it to the end of the map's order, so the first
 * entry is always the least recently used.
 */
export class BoundedCache<Value> {
  readonly #entries = new Map<string, Value>();

  constructor(private readonly max: number) {}

  /** The value kept for `key`, made by `make` when there is none; either way it becomes the most recently used. */
  get(key: string, make: (key: string) => Value): Value {
    let value = this.#entries.get(key);
    if (value === undefined && !this.#entries.has(key)) {
      value = make(key);
      if (this.#entries.size >= this.max) this.#entries.delete(this.#entries.keys().next().value as string);
    } else this.#entries.delete(key);
    this.#entries.set(key, value as Value);
    return value as Value;
  }

  /** Forgets `key` when it still holds `value` (a failed import is not remembered). */
  forget(key: string, value: Value): void {
    if (this.#entries.get(key) === value) this.#entries.delete(key);
  }

  get size(): number {
    return this.#entries.size;
  }
}
