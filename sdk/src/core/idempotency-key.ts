import { bytesToHex } from '../hex.js';

/** Methods whose retries could repeat a side effect, so every attempt of one call carries the same key. */
export function needsIdempotencyKey(method: string): boolean {
  return method === 'POST' || method === 'PATCH';
}

export function generateIdempotencyKey(): string {
  // randomUUID exists only in secure browser contexts; getRandomValues exists everywhere Web Crypto does.
  if (typeof crypto.randomUUID === 'function') return `idk_${crypto.randomUUID()}`;
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `idk_${bytesToHex(bytes)}`;
}
