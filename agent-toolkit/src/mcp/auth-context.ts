import type { AuthInfo } from '@modelcontextprotocol/server';
import type { CardrailTool, CardrailToolkit } from '../toolkit.js';

/**
 * Who a request to the MCP server acts for. Without an authenticator (the default, one API key given at start) every
 * request acts for the server's own toolkit; an authenticator (e.g. OAuth) gives each request its own.
 */
export interface McpAuthContext {
  /** The toolkit the request's tool calls run with: the API key, the agent and the card they may act for. */
  toolkit: CardrailToolkit;
  /**
   * Who is calling, e.g. a token's `sub`. Signed into the `requestState` and the task ids the server hands out, with
   * the agent and the card, so that one caller's cannot be used by another.
   */
  subject: string;
  /** What the MCP SDK hands its handlers as `ctx.http.authInfo` (the verified token). */
  authInfo?: AuthInfo | undefined;
  /**
   * The person the caller acts for, as others know them (a name or an e-mail address), when the authenticator knows
   * one: a decision made in the approval card records them as the decider (the intent's `decidedBy.name`).
   */
  person?: string | undefined;
}

/** What a request asks for, read before any MCP handling, so that an authenticator can require scopes per tool. */
export interface McpCallSummary {
  /** The JSON-RPC method, e.g. `tools/call`, `tasks/get`; undefined for a body that is not a JSON-RPC message. */
  method: string | undefined;
  /** For `tools/call` of a tool of the catalog: the tool, with its hints (read-only, may need a person, ...). */
  tool?: Pick<CardrailTool, 'name' | 'readOnly' | 'destructive' | 'idempotent' | 'openWorld' | 'mayNeedPerson'> | undefined;
  /** For `tools/call`: the name asked for, in the catalog or not. */
  toolName?: string | undefined;
}

/**
 * Authenticates a request to the MCP endpoint before any MCP handling: answers the `Response` to send as it is (`401`
 * with `WWW-Authenticate`, `403 insufficient_scope` when the call needs a scope the caller lacks), or the context the
 * request acts for. Nothing reaches the API before it answered a context.
 */
export type McpRequestAuthenticator = (request: Request, call: McpCallSummary) => Promise<Response | McpAuthContext>;

/** The subject of the server's own context: every request of a server started with one API key. */
export const API_KEY_SUBJECT = 'api-key';

/** What the server signs `requestState` and task ids for: the subject, the agent and the card. */
export function bindingOf(context: McpAuthContext): string {
  return [context.subject, context.toolkit.agentId, context.toolkit.cardId ?? ''].join('\0');
}
