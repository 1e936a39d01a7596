/** Lower-case hex of bytes: the form of a `v1=` signature and of a generated idempotency key. */
export function bytesToHex(bytes: Uint8Array): string {
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}
