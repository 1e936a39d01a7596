import { randomBytes } from 'node:crypto';

/** A fresh, syntactically valid key: a new organization on first use, so tests never share state. */
export function newKey(mode: 'test' | 'live' = 'test'): string {
  return `sk_${mode}_${randomBytes(12).toString('hex')}`;
}

export const FROZEN_AT = '2026-11-21T12:00:00.000Z';
export const FROZEN_MS = Date.parse(FROZEN_AT);
