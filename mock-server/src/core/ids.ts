import { bytesToBase64url } from './base64url.js';

/** Id prefixes of spec/README.md. */
export const ID_PREFIX = {
  customer: 'cus_',
  agent: 'agt_',
  card: 'card_',
  event: 'evt_',
  webhook: 'wh_',
  webhookDelivery: 'whd_',
  transaction: 'txn_',
  intent: 'int_',
  cursor: 'cur_',
  apiKey: 'key_',
  accessEvent: 'acc_',
  withdrawal: 'wd_',
  dispute: 'dsp_',
  challenge: 'chl_',
  deposit: 'dep_',
  request: 'req_',
  organization: 'org_',
} as const;

export type IdKind = keyof typeof ID_PREFIX;

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Fills a buffer with random bytes; injectable so a test can make ids reproducible. */
export type RandomSource = (size: number) => Uint8Array;

const POOL_SIZE = 4096;
let pool: Uint8Array = new Uint8Array(0);
let offset = 0;

/** Web Crypto fills at most 65,536 bytes per call. */
const MAX_FILL = 65_536;

function randomBytes(size: number): Uint8Array {
  const bytes = new Uint8Array(size);
  for (let start = 0; start < size; start += MAX_FILL) crypto.getRandomValues(bytes.subarray(start, start + MAX_FILL));
  return bytes;
}

/**
 * Cryptographic randomness (Web Crypto's `getRandomValues`, in every runtime) handed out from a pool: one call per
 * 4 KiB instead of one per id, which was the largest single cost of a simple request. Each refill is a new buffer,
 * so a view handed out earlier keeps its bytes.
 */
export const cryptoRandom: RandomSource = (size) => {
  if (size > POOL_SIZE) return randomBytes(size);
  if (offset + size > pool.length) {
    pool = randomBytes(POOL_SIZE);
    offset = 0;
  }
  const bytes = pool.subarray(offset, offset + size);
  offset += size;
  return bytes;
};

/** Random base62 text of `length` characters. */
export function randomBase62(random: RandomSource, length: number): string {
  const bytes = random(length);
  let out = '';
  // 248 is the largest multiple of 62 below 256; rejecting above it keeps the characters uniform.
  for (let i = 0; i < length; i++) {
    let byte = bytes[i] ?? 0;
    while (byte >= 248) byte = random(1)[0] ?? 0;
    out += ALPHABET[byte % 62];
  }
  return out;
}

export class IdFactory {
  constructor(private readonly random: RandomSource = cryptoRandom) {}

  next(kind: IdKind): string {
    return ID_PREFIX[kind] + randomBase62(this.random, 20);
  }

  /** Random letters and digits, for identifiers without a prefix of their own. */
  text(length: number): string {
    return randomBase62(this.random, length);
  }

  /** Random decimal digits (card numbers, codes). */
  digits(length: number): string {
    let out = '';
    // 250 is the largest multiple of 10 below 256; rejecting above it keeps the digits uniform.
    while (out.length < length) {
      const byte = this.random(1)[0] ?? 0;
      if (byte < 250) out += String(byte % 10);
    }
    return out;
  }

  /** A webhook signing secret: `whsec_` and 32 base64url characters (24 random bytes). */
  webhookSecret(): string {
    return `whsec_${bytesToBase64url(this.random(24))}`;
  }

  /** A new API key of the given mode, in the syntax the mock accepts. */
  apiKey(mode: 'test' | 'live'): string {
    return `sk_${mode}_${randomBase62(this.random, 32)}`;
  }
}
