/**
 * How deep a request body's JSON may nest, the body itself being level 1 (docs/errors.md#request-size-and-depth):
 * far deeper than any real metadata, and shallow enough that storing, rendering and signing a value never meets a
 * recursion limit.
 */
export const MAX_JSON_DEPTH = 64;

/**
 * Whether a JSON text nests arrays and objects deeper than `limit`. One pass over the text, before it is parsed:
 * brackets inside strings do not count.
 */
export function nestsDeeperThan(text: string, limit: number): boolean {
  // Each level needs an opening bracket: a shorter text cannot exceed the limit.
  if (text.length <= limit) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === 0x5c)
        i++; // backslash: the next character is escaped
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) inString = true;
    else if (code === 0x7b || code === 0x5b) {
      if (++depth > limit) return true;
    } else if (code === 0x7d || code === 0x5d) depth--;
  }
  return false;
}
