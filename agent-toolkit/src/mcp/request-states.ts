import {
  createRequestStateCodec,
  ProtocolError,
  ProtocolErrorCode,
  type RequestStateCodec,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { canonicalJson, sha256Hex } from '../idempotency.js';
import type { ApprovalState } from './approval/approval-call.js';

/** How long a client may take to retry a call that asked for input: about an intent's default lifetime. */
const STATE_TTL_SECONDS = 3_600;

/** What the SDK answers to a `requestState` that fails verification, and what this server answers when it is valid
 * but for another call: one message, so that a client learns nothing from the difference. */
export function invalidRequestState(): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, 'Invalid or expired requestState', {
    reason: 'invalid_request_state',
  });
}

/**
 * The `requestState` of a server's `input_required` answers (MCP 2026-07-28), signed with the SDK's HMAC-SHA256
 * codec and bound to who may give it back (subject, agent and card), for an hour. The codec binds the method, not
 * the tool, so the payload names the tool and a digest of the arguments, and `check` refuses a state given back with
 * another tool or other arguments. A state that fails the codec's own check is refused by the SDK before any handler
 * runs (`-32602 Invalid or expired requestState`); nothing is sent to the API.
 */
export class RequestStates {
  readonly #codec: RequestStateCodec<ApprovalState>;

  constructor(secret: Uint8Array, binding: string) {
    this.#codec = createRequestStateCodec<ApprovalState>({ key: secret, ttlSeconds: STATE_TTL_SECONDS, bind: () => binding });
  }

  /** For the server's `requestState.verify` option. */
  readonly verify = (state: string, ctx: ServerContext): Promise<ApprovalState> => this.#codec.verify(state, ctx);

  async seal(ctx: ServerContext, tool: string, args: unknown, fields: Pick<ApprovalState, 'intentId' | 'path'>): Promise<string> {
    return this.#codec.mint({ tool, args: await sha256Hex(canonicalJson(args ?? {})), ...fields }, ctx);
  }

  /**
   * The verified state of this round, or undefined on a first round; throws `invalidRequestState()` when the state
   * is for another tool or other arguments.
   */
  async check(ctx: ServerContext, tool: string, args: unknown): Promise<ApprovalState | undefined> {
    const state = ctx.mcpReq.requestState<ApprovalState>();
    if (state === undefined) return undefined;
    if (typeof state !== 'object' || state.tool !== tool || state.args !== (await sha256Hex(canonicalJson(args ?? {})))) {
      throw invalidRequestState();
    }
    return state;
  }
}
