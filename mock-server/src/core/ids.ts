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
  paymentToken: 'tok_',
  deposit: 'dep_',
  request: 'req_',
  organization: 'org_',
} as const;

export type IdKind = keyof typeof ID_PREFIX;

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const ALPHABET_CODES = Array.from(ALPHABET, (char) => char.charCodeAt(0));

/** Fills a buffer with random bytes; injectable so a test can make ids reproducible. */
export type RandomSource = (size: number) => Uint8Array;

const POOL_SIZE = 4096;
let pool: Uint8Array = new Uint8Array(0);
let offset = 0;

/** Web Crypto fills at most 65,536 bytes per call. */
const MAX_FILL = 65_536;

/**
 * Web Crypto's getRandomValues: a web standard on every runtime the mock runs on. On Node its first call loads most of
 * Node's crypto modules (about 7 ms, measured from a file, not `node -e`, which preloads them), so what runs before a
 * server's first answer takes its bytes from uniqueRandom instead; the pool below makes the per-call cost irrelevant.
 */
function fillRandom(bytes: Uint8Array<ArrayBuffer>): void {
  crypto.getRandomValues(bytes);
}

function randomBytes(size: number): Uint8Array {
  const bytes = new Uint8Array(size);
  for (let start = 0; start < size; start += MAX_FILL) fillRandom(bytes.subarray(start, start + MAX_FILL));
  return bytes;
}

/**
 * Cryptographic randomness (Web Crypto's, see fillRandom) handed out from a pool: one call per
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

/** One byte of the same pool, without the typed-array view a `cryptoRandom(1)` call allocates. */
function pooledByte(): number {
  if (offset >= pool.length) {
    pool = randomBytes(POOL_SIZE);
    offset = 0;
  }
  return pool[offset++] as number;
}

/**
 * A byte for what must be unique but need not be secret (object ids, `Request-Id`): Math.random, which every runtime
 * seeds from the system's entropy, per process (two instances on one database draw different ids), and which needs no
 * set-up. Ids name objects; no id grants access to one (every lookup is scoped to its organization and mode).
 */
function uniqueByte(): number {
  return Math.floor(Math.random() * 256);
}

/** Random bytes from the same source as uniqueByte: unique, not secret. */
const uniqueRandom: RandomSource = (size) => {
  const bytes = new Uint8Array(size);
  for (let i = 0; i < size; i++) bytes[i] = uniqueByte();
  return bytes;
};

/**
 * The character codes of the id being built, one array per length (reused: ids come in a few lengths), filled by
 * index and handed whole to String.fromCharCode, so building an id allocates nothing but the id.
 */
const codeArrays: number[][] = [];

/** The reused array for an id of `prefix` and `length` random characters, the prefix already in place. */
function codesAfter(prefix: string, length: number): number[] {
  const size = prefix.length + length;
  let codes = codeArrays[size];
  if (codes === undefined) {
    codes = new Array<number>(size).fill(0);
    codeArrays[size] = codes;
  }
  for (let i = 0; i < prefix.length; i++) codes[i] = prefix.charCodeAt(i);
  return codes;
}

/**
 * `prefix` and `length` random base62 characters, as one flat string. Appending character by character would
 * leave a chain of a dozen rope nodes per id, which every stored id would keep (and every Map lookup and JSON
 * rendering would walk) for as long as its object lives.
 */
function base62Id(random: RandomSource, prefix: string, length: number): string {
  const codes = codesAfter(prefix, length);
  let at = prefix.length;
  // 248 is the largest multiple of 62 below 256; rejecting above it keeps the characters uniform.
  const nextByte = random === cryptoRandom ? pooledByte : random === uniqueRandom ? uniqueByte : undefined;
  if (nextByte !== undefined) {
    for (let i = 0; i < length; i++) {
      let byte = nextByte();
      while (byte >= 248) byte = nextByte();
      codes[at++] = ALPHABET_CODES[byte % 62] as number;
    }
  } else {
    const bytes = random(length);
    for (let i = 0; i < length; i++) {
      let byte = bytes[i] ?? 0;
      while (byte >= 248) byte = random(1)[0] ?? 0;
      codes[at++] = ALPHABET_CODES[byte % 62] as number;
    }
  }
  return String.fromCharCode.apply(null, codes);
}

/** 62 to the 5th: five base62 characters per Math.random draw (its 52 bits hold 62^5, about 2^29.8, evenly). */
const FIVE_CHARACTERS = 62 ** 5;

/**
 * A new `Request-Id` (`req_` and 16 random letters and digits): always random, so that a seeded mock's object ids
 * stay the same however many requests it answers; unique, not secret (as uniqueRandom). Made on every request, so
 * each Math.random draw gives five characters instead of one.
 */
export function newRequestId(): string {
  const prefix = ID_PREFIX.request;
  const codes = codesAfter(prefix, 16);
  let at = prefix.length;
  for (let left = 16; left > 0; left -= 5) {
    let draw = Math.floor(Math.random() * FIVE_CHARACTERS);
    for (let i = Math.min(left, 5); i > 0; i--) {
      codes[at++] = ALPHABET_CODES[draw % 62] as number;
      draw = Math.floor(draw / 62);
    }
  }
  return String.fromCharCode.apply(null, codes);
}

/** Random base62 text of `length` characters. */
function randomBase62(random: RandomSource, length: number): string {
  return base62Id(random, '', length);
}

/**
 * Ids and secrets. Given a source (a seeded mock's), everything comes from it, reproducibly; otherwise object ids come
 * from uniqueRandom (unique, not secret) and everything a holder could use, or that imitates card data, from
 * cryptoRandom: API keys, webhook secrets, codes, card numbers.
 */
export class IdFactory {
  private readonly idRandom: RandomSource;
  private readonly secretRandom: RandomSource;

  constructor(random?: RandomSource) {
    this.idRandom = random ?? uniqueRandom;
    this.secretRandom = random ?? cryptoRandom;
  }

  next(kind: IdKind): string {
    return base62Id(this.idRandom, ID_PREFIX[kind], 20);
  }

  /** Random letters and digits, for identifiers without a prefix of their own. */
  text(length: number): string {
    return randomBase62(this.secretRandom, length);
  }

  /** Random decimal digits (card numbers, codes). */
  digits(length: number): string {
    const codes = codesAfter('', length);
    const pooled = this.secretRandom === cryptoRandom;
    // 250 is the largest multiple of 10 below 256; rejecting above it keeps the digits uniform.
    for (let at = 0; at < length; ) {
      const byte = pooled ? pooledByte() : (this.secretRandom(1)[0] ?? 0);
      if (byte < 250) codes[at++] = 0x30 + (byte % 10);
    }
    return String.fromCharCode.apply(null, codes);
  }

  /**
   * A webhook signing secret: `whsec_` and 32 random letters and digits (about 190 bits). Letters and digits are also
   * standard base64, of 24 bytes: Cardrail-Signature keys with the whole string, Standard Webhooks (and its libraries,
   * which decode the part after `whsec_`) with those bytes. Secrets issued before were 32 base64url characters.
   */
  webhookSecret(): string {
    return base62Id(this.secretRandom, 'whsec_', 32);
  }

  /** A new API key of the given mode, in the syntax the mock accepts. */
  apiKey(mode: 'test' | 'live'): string {
    return base62Id(this.secretRandom, `sk_${mode}_`, 32);
  }
}
