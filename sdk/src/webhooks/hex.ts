/** Lower-case hex, the form of a `v1=` signature. */
export function bytesToHex(bytes: Uint8Array): string {
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * Compares two lower-case hex digests without stopping at the first difference, so the time taken does not tell an
 * attacker how many leading characters of a forged signature were right. Lengths are public (always 64 here).
 */
export function hexDigestsEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let index = 0; index < a.length; index += 1) difference |= a.charCodeAt(index) ^ b.charCodeAt(index);
  return difference === 0;
}
