/**
 * Base64url (RFC 4648 section 5, no padding) through the web-standard `btoa`/`atob`, which every runtime has
 * (Buffer is Node's). Only short values go through here: cursors and webhook secrets.
 */
export function bytesToBase64url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** Text (UTF-8) as base64url. */
export function textToBase64url(text: string): string {
  return bytesToBase64url(new TextEncoder().encode(text));
}

/** The UTF-8 text of a base64url value, or undefined when the value is not base64url. */
export function base64urlToText(value: string): string | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(value) || value.length % 4 === 1) return undefined;
  const binary = atob(value.replace(/-/g, '+').replace(/_/g, '/'));
  const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0));
  return new TextDecoder('utf-8', { fatal: false }).decode(bytes);
}
