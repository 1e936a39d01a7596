import { SignedTokens, type TokenKind } from '../signed-token.js';

/** What a decision capability grants: deciding one intent, and reading it for its card, until it expires. */
export interface DecisionGrant {
  intentId: string;
  /** When the capability stops working, in epoch milliseconds of the server's clock: when the intent expires. */
  expiresAt: number;
}

/** Why a capability was refused, in words a person and a developer can act on. */
export type CapabilityRefusal = 'missing' | 'malformed' | 'forged' | 'other_intent' | 'expired';

const SAFE_ID = /^[A-Za-z0-9_-]{1,100}$/;
/** The expiry in base 36. */
const TIME = /^[0-9a-z]{1,12}$/;
const CAPABILITY: TokenKind<[intentId: string, expiry: string]> = {
  prefix: 'dc1',
  label: 'cardrail-mcp/approval-card/decision-capability/v1',
  forms: [SAFE_ID, TIME],
};

/**
 * The secret the approval card's view holds and a model never does (signed-token.ts):
 * `dc1.<intentId>.<expiry>.<HMAC-SHA256>`, the MAC over the intent, the expiry and who may use it (the server's
 * binding: the caller, the agent and the card), under a label of its own (a task id never verifies as one). The
 * server puts it in the `_meta` of the tool result that shows the card, which MCP Apps hosts give the view and keep
 * from the model; the card's tools refuse any call without it. Nothing is stored: it works for one intent, which can
 * be decided once, so it is spent by the first decision (a replay finds the intent decided and changes nothing), and it
 * stops working when the intent expires.
 */
export class DecisionCapabilities {
  readonly #tokens: SignedTokens;

  constructor(secret: Uint8Array, binding: string) {
    this.#tokens = new SignedTokens(secret, binding);
  }

  async mint(grant: DecisionGrant): Promise<string> {
    if (!SAFE_ID.test(grant.intentId) || !Number.isSafeInteger(grant.expiresAt) || grant.expiresAt < 0) {
      throw new TypeError(`Cannot grant a decision on ${grant.intentId} until ${grant.expiresAt}`);
    }
    return this.#tokens.sign(CAPABILITY, [grant.intentId, grant.expiresAt.toString(36)]);
  }

  /** Whether `value` is a capability this server minted, for this binding, for `intentId`, not yet expired. */
  async check(value: unknown, intentId: string, now = Date.now()): Promise<CapabilityRefusal | undefined> {
    if (value === undefined || value === null || value === '') return 'missing';
    const fields = await this.#tokens.verify(CAPABILITY, value);
    if (typeof fields === 'string') return fields;
    const [granted, expiry] = fields;
    if (granted !== intentId) return 'other_intent';
    if (Number.parseInt(expiry, 36) <= now) return 'expired';
    return undefined;
  }
}
