import type { Mode } from './event-log.js';

/** The longest API key accepted, in characters (docs/ids-and-keys.md#api-keys): a longer one is 401. */
export const MAX_KEY_LENGTH = 256;

/**
 * `sk_test_` or `sk_live_` and 8 to 248 characters of `[A-Za-z0-9_]` (docs/ids-and-keys.md#api-keys): at most
 * MAX_KEY_LENGTH in all.
 */
export const KEY_SYNTAX = /^sk_(test|live)_[A-Za-z0-9_]{8,248}$/;

/** The mode a key of the right syntax is for; undefined for any other string. */
export function modeOfKey(key: string): Mode | undefined {
  const match = KEY_SYNTAX.exec(key);
  // The group is `test` or `live`.
  return match ? (match[1] as Mode) : undefined;
}
