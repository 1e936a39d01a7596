import { base64Url, fromBase64Url } from './base64-url.js';

/**
 * One kind of signed token: `<prefix>.<field>....<HMAC-SHA256>`. `label` separates the kinds: it begins what the MAC
 * is computed over, so a token of one kind is refused as another even where their prefixes and fields look alike.
 * `Fields` names the fields in order (a tuple), and `forms` gives each its pattern. A label holds no NUL and is
 * never reused by another kind, nor changed once tokens of its kind are out (they would stop verifying).
 */
export interface TokenKind<Fields extends string[]> {
  prefix: string;
  label: string;
  forms: { [K in keyof Fields]: RegExp };
}

/** Why a token was refused: it is not of the kind's shape (`malformed`), or its MAC is not this signer's (`forged`). */
export type TokenRefusal = 'malformed' | 'forged';

/** Longer tokens are refused before any work: a kind's fields are short. */
const MAX_LENGTH = 512;
/** Every field, whatever its kind's form: no `.` (the separator) and no NUL (the MAC's separator). */
const FIELD = /^[A-Za-z0-9_-]+$/;
const MAC_BYTES = 32;
const encoder = new TextEncoder();

/**
 * Signs and verifies what an MCP server hands a client to hold and give back unchanged (a task id, the approval
 * card's decision capability): HMAC-SHA256 keyed by the server's state secret, over the kind's label, the server's
 * binding (who may use it: the caller, the agent and the card) and the fields, joined by NUL. Nothing is stored. The
 * MAC is checked with Web Crypto's `verify`, in constant time, and only in its one canonical base64url form.
 *
 * The MCP `requestState` is not signed here: the MCP SDK's codec (`createRequestStateCodec`) signs it with the same
 * secret over inputs that start `v1.` or `mcp.requestState.bind:`, which no label here starts with.
 */
export class SignedTokens {
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

  #signed(label: string, fields: readonly string[]): Uint8Array<ArrayBuffer> {
    return encoder.encode([label, this.#binding, ...fields].join('\0'));
  }

  /** The token of `fields`; throws `TypeError` when a field is not of the kind's form. */
  async sign<Fields extends string[]>(kind: TokenKind<Fields>, fields: Fields): Promise<string> {
    if (!fitsForms(kind, fields)) throw new TypeError(`Cannot sign ${kind.prefix} token fields ${JSON.stringify(fields)}`);
    const mac = await crypto.subtle.sign('HMAC', await this.#cryptoKey(), this.#signed(kind.label, fields));
    return [kind.prefix, ...fields, base64Url(new Uint8Array(mac))].join('.');
  }

  /** The fields of `token` when this signer made it, for this binding and this kind; otherwise why not. */
  async verify<Fields extends string[]>(kind: TokenKind<Fields>, token: unknown): Promise<Fields | TokenRefusal> {
    if (typeof token !== 'string' || token.length > MAX_LENGTH) return 'malformed';
    const [prefix, ...rest] = token.split('.');
    const mac = rest.pop();
    if (prefix !== kind.prefix || mac === undefined || !fitsForms(kind, rest)) return 'malformed';
    const macBytes = fromBase64Url(mac);
    if (macBytes?.byteLength !== MAC_BYTES || base64Url(macBytes) !== mac) return 'malformed';
    const valid = await crypto.subtle.verify('HMAC', await this.#cryptoKey(), macBytes, this.#signed(kind.label, rest));
    return valid ? (rest as Fields) : 'forged';
  }
}

function fitsForms(kind: TokenKind<string[]>, fields: readonly string[]): boolean {
  const forms: readonly RegExp[] = kind.forms;
  return fields.length === forms.length && fields.every((field, at) => FIELD.test(field) && forms[at]?.test(field) === true);
}
