import type { Variant } from './variant.js';

/**
 * The JSON text each variant last answered for a stored record, kept until the record changes: a read of a record
 * nothing changed since is answered with the text already made. Serializing a card is a third of the mock's own work
 * on a GET of it, and reads outnumber changes in most suites.
 *
 * A record changes only through its Collection (`update`, or a new object put in its place), which drops its texts
 * first: the same calls the change journal follows, so a text is never older than what a durable store holds. A
 * record the collection no longer holds is garbage with its texts (a WeakMap).
 */
const texts = new WeakMap<object, Partial<Record<Variant, string>>>();

/** The text answered for `record` in `variant`, made by `stringify` the first time and kept until it changes. */
export function recordText(record: object, variant: Variant, stringify: () => string): string {
  let known = texts.get(record);
  const kept = known?.[variant];
  if (kept !== undefined) return kept;
  const text = stringify();
  if (known === undefined) {
    known = {};
    texts.set(record, known);
  }
  known[variant] = text;
  return text;
}

/** Drops the texts of a record about to change (Collection). */
export function forgetRecordText(record: object): void {
  texts.delete(record);
}
