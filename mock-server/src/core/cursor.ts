import { base64urlToText, textToBase64url } from './base64url.js';
import { ID_PREFIX } from './ids.js';

/**
 * A list cursor names the position after the last object of a page: the creation sequence number of that
 * object. Objects created later have larger numbers, so a walk newest-first is never disturbed by inserts.
 */
export function encodeCursor(seq: number): string {
  return ID_PREFIX.cursor + textToBase64url(`s${seq.toString(36)}`);
}

/** The sequence number a cursor names, or undefined when the text is not a cursor of this mock. */
export function decodeCursor(cursor: string): number | undefined {
  if (!cursor.startsWith(ID_PREFIX.cursor)) return undefined;
  const text = base64urlToText(cursor.slice(ID_PREFIX.cursor.length));
  if (text === undefined || !/^s[0-9a-z]{1,11}$/.test(text)) return undefined;
  const seq = parseInt(text.slice(1), 36);
  return Number.isSafeInteger(seq) ? seq : undefined;
}
