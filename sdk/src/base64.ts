// Base64 through the web-standard `btoa`/`atob`, which every runtime has (Buffer is Node's): Standard Webhooks writes
// its signatures in base64 and its secrets are base64 after `whsec_`. Only short values go through here: digests
// (32 bytes) and secrets.

/** Standard base64 (RFC 4648 section 4) of bytes, padded. */
export function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/**
 * The bytes of a base64 text in either alphabet (standard `+/` or URL-safe `-_`), padded or not; undefined when the
 * text is not base64. Both alphabets are read because secrets issued before the standard alphabet was chosen are in
 * the URL-safe one. (`atob` takes unpadded text and refuses characters outside the alphabet.)
 */
export function base64ToBytes(text: string): Uint8Array | undefined {
  try {
    return Uint8Array.from(atob(text.replace(/-/g, '+').replace(/_/g, '/')), (char) => char.charCodeAt(0));
  } catch {
    return undefined;
  }
}
