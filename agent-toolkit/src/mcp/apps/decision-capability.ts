import { base64Url, fromBase64Url } from '../base64-url.js';

/** What a decision capability grants: deciding one intent, and reading it for its card, until it expires. */
export interface DecisionGrant {
  intentId: string;
  /** When the capability stops working, in epoch milliseconds of the server's clock: when the intent expires. */
  expiresAt: number;
}

/** Why a capability was refused, in words a person and a developer can act on. */
export type CapabilityRefusal = 'missing' | 'malformed' | 'forged' | 'other_intent' | 'expired';

const PREFIX = 'dc1';
const LABEL = 'cardrail-mcp/approval-card/decision-capability/v1';
/** Longer values are refused before any work: an intent id, a time and a MAC are short. */
const MAX_LENGTH = 512;
const SAFE_ID = /^[A-Za-z0-9_-]{1,100}$/;
const TIME = /^[0-9a-z]{1,12}$/;
const encoder = new TextEncoder();

/**
 * The secret the approval card's view holds and a model never does: `dc1.<intentId>.<expiry>.<HMAC-SHA256>`, the MAC
 * over the intent, the expiry and who may use it (the server's binding: the caller, the agent and the card), keyed by
 * the server's state secret under a label of its own (a task id or a `requestState` never verifies as one). The
 * server puts it in the `_meta` of the tool result that shows the card, which MCP Apps hosts give the view and keep
 * from the model; the card's tools refuse any call without it. Nothing is stored: it works for one intent, which can
 * be decided once, so it is spent by the first decision (a replay finds the intent decided and changes nothing), and it
 * stops working when the intent expires. Verified with Web Crypto's `verify`, in constant time.
 */
export class DecisionCapabilities {
  readonly #secret: Uint8Array<ArrayBuffer>;
  readonly #binding: string;
  #key: Promise<CryptoKey> | undefined;

  constructor(secret: Uint8Array, binding: string) {
    this.#secret = Uint8Array.from(secret);
    this.#binding = binding;
  }

  #cryptoKey(): Promise<CryptoKey> {
    this.#key ??= crypto.subtle.importKey('raw', this.#secret, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
    return this.#key;
  }

  #signed(intentId: string, expiry: string): Uint8Array<ArrayBuffer> {
    return encoder.encode([LABEL, this.#binding, intentId, expiry].join('\0'));
  }

  async mint(grant: DecisionGrant): Promise<string> {
    if (!SAFE_ID.test(grant.intentId) || !Number.isSafeInteger(grant.expiresAt) || grant.expiresAt < 0) {
      throw new TypeError(`Cannot grant a decision on ${grant.intentId} until ${grant.expiresAt}`);
    }
    const expiry = grant.expiresAt.toString(36);
    const mac = await crypto.subtle.sign('HMAC', await this.#cryptoKey(), this.#signed(grant.intentId, expiry));
    return [PREFIX, grant.intentId, expiry, base64Url(new Uint8Array(mac))].join('.');
  }

  /** Whether `value` is a capability this server minted, for this binding, for `intentId`, not yet expired. */
  async check(value: unknown, intentId: string, now = Date.now()): Promise<CapabilityRefusal | undefined> {
    if (value === undefined || value === null || value === '') return 'missing';
    if (typeof value !== 'string' || value.length > MAX_LENGTH) return 'malformed';
    const [prefix, granted, expiry, mac, ...rest] = value.split('.');
    if (prefix !== PREFIX || rest.length > 0 || !granted || !expiry || !mac) return 'malformed';
    if (!SAFE_ID.test(granted) || !TIME.test(expiry)) return 'malformed';
    const macBytes = fromBase64Url(mac);
    if (macBytes === undefined) return 'malformed';
    const valid = await crypto.subtle.verify('HMAC', await this.#cryptoKey(), macBytes, this.#signed(granted, expiry));
    if (!valid) return 'forged';
    if (granted !== intentId) return 'other_intent';
    if (Number.parseInt(expiry, 36) <= now) return 'expired';
    return undefined;
  }
}
