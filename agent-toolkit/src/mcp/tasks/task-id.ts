import { base64Url, fromBase64Url } from '../base64-url.js';

/** What a task id names: the intent a tool call left waiting for a person, and that tool. */
export interface TaskRef {
  intentId: string;
  tool: string;
}

const PREFIX = 'ct1';
const LABEL = 'cardrail-mcp/task-id/v1';
/** Longer ids are refused before any work: an intent id and a tool name are short. */
const MAX_LENGTH = 512;
const SAFE = /^[A-Za-z0-9_-]+$/;
const encoder = new TextEncoder();

/**
 * Task ids that are the intents themselves, signed: `ct1.<intentId>.<tool>.<HMAC-SHA256>`, the MAC over the intent,
 * the tool and who may follow it (the server's binding: subject, agent and card). Nothing is stored: a task lives as
 * long as its intent, through restarts of the server, and a client can neither make one up nor follow another
 * agent's (the MAC does not match). Verified with Web Crypto's `verify`, in constant time.
 */
export class TaskIds {
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

  #signed(ref: TaskRef): Uint8Array<ArrayBuffer> {
    return encoder.encode([LABEL, this.#binding, ref.intentId, ref.tool].join('\0'));
  }

  async mint(ref: TaskRef): Promise<string> {
    if (!SAFE.test(ref.intentId) || !SAFE.test(ref.tool)) throw new TypeError(`Cannot name a task after ${ref.intentId}`);
    const mac = await crypto.subtle.sign('HMAC', await this.#cryptoKey(), this.#signed(ref));
    return [PREFIX, ref.intentId, ref.tool, base64Url(new Uint8Array(mac))].join('.');
  }

  /** What the id names, or undefined when it is not one this server minted for this binding. */
  async verify(taskId: unknown): Promise<TaskRef | undefined> {
    if (typeof taskId !== 'string' || taskId.length > MAX_LENGTH) return undefined;
    const [prefix, intentId, tool, mac, ...rest] = taskId.split('.');
    if (prefix !== PREFIX || rest.length > 0 || !intentId || !tool || !mac) return undefined;
    if (!SAFE.test(intentId) || !SAFE.test(tool)) return undefined;
    const macBytes = fromBase64Url(mac);
    if (macBytes === undefined) return undefined;
    const ref = { intentId, tool };
    const valid = await crypto.subtle.verify('HMAC', await this.#cryptoKey(), macBytes, this.#signed(ref));
    return valid ? ref : undefined;
  }
}
