import { SignedTokens, type TokenKind } from '../signed-token.js';

/** What a task id names: the intent a tool call left waiting for a person, and that tool. */
export interface TaskRef {
  intentId: string;
  tool: string;
}

const SAFE = /^[A-Za-z0-9_-]+$/;
const TASK_ID: TokenKind<[intentId: string, tool: string]> = {
  prefix: 'ct1',
  label: 'cardrail-mcp/task-id/v1',
  forms: [SAFE, SAFE],
};

/**
 * Task ids that are the intents themselves, signed (signed-token.ts): `ct1.<intentId>.<tool>.<HMAC-SHA256>`, the MAC
 * over the intent, the tool and who may follow it (the server's binding: subject, agent and card). Nothing is stored:
 * a task lives as long as its intent, through restarts of the server, and a client can neither make one up nor follow
 * another agent's (the MAC does not match).
 */
export class TaskIds {
  readonly #tokens: SignedTokens;

  constructor(secret: Uint8Array, binding: string) {
    this.#tokens = new SignedTokens(secret, binding);
  }

  async mint(ref: TaskRef): Promise<string> {
    if (!SAFE.test(ref.intentId) || !SAFE.test(ref.tool)) throw new TypeError(`Cannot name a task after ${ref.intentId}`);
    return this.#tokens.sign(TASK_ID, [ref.intentId, ref.tool]);
  }

  /** What the id names, or undefined when it is not one this server minted for this binding. */
  async verify(taskId: unknown): Promise<TaskRef | undefined> {
    const fields = await this.#tokens.verify(TASK_ID, taskId);
    if (typeof fields === 'string') return undefined;
    const [intentId, tool] = fields;
    return { intentId, tool };
  }
}
