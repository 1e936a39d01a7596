/**
 * Whether two strings are equal, in time that depends on their length only, never on where they first differ: how
 * a secret (a key, a token, a cryptogram) is compared with what a client presented. Strings of different lengths
 * are unequal at once; the lengths of the secrets compared this way are public (the key syntax, a token's format).
 */
export function sameTextInConstantTime(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}
