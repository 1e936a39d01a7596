import { cryptoRandom } from '../core/ids.js';
import { sameTextInConstantTime } from '../core/same-text.js';
import { sha256Hex } from '../core/sha256.js';

/** A new control token: 32 random bytes as hex (what the server prints when none is given). */
export function newControlToken(): string {
  return [...cryptoRandom(32)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * Whether `Authorization: Bearer <token>` carries the control token. Both are hashed first and the digests compared
 * in full, so the time taken says nothing about how much of a guess was right, nor about the token's length.
 */
export function presentsToken(authorization: string | null, token: string): boolean {
  const presented = /^Bearer +(\S+) *$/i.exec(authorization ?? '')?.[1];
  if (presented === undefined) return false;
  return sameTextInConstantTime(sha256Hex(presented), sha256Hex(token));
}
