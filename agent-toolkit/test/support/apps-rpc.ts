// The approval card's server side over the 2026-07-28 wire, for the tests of mcp-apps*.test.ts: a fetch handler for
// the world's agent, raw requests from a client that renders MCP Apps, and what a tool's error says.
import { expect } from 'vitest';
import { createCardrailToolkit } from '../../src/index.js';
import { createMcpFetchHandler, type McpFetchHandlerOptions } from '../../src/mcp/index.js';
import { modernRpc, type RpcMessage } from './rpc.js';
import type { World } from './world.js';

const URL_ = 'http://127.0.0.1:4020/mcp';
export const SECRET = 'a-state-secret-for-this-test-only-32b';
export const UI = 'io.modelcontextprotocol/ui';
export const RENDERS_APPS = { extensions: { [UI]: { mimeTypes: ['text/html;profile=mcp-app'] } } };
/** Where a tool result carries the card's decision capability. */
export const CARD = 'dev.cardrail/approvalCard';

export type Handler = ReturnType<typeof createMcpFetchHandler>;

/** The helpers, for the world a file's `beforeAll` starts (read when called). */
export function appsRpc(world: () => World) {
  const handlerFor = (options: McpFetchHandlerOptions = {}): Handler => {
    const { apiKey, baseUrl, agentId } = world();
    return createMcpFetchHandler(createCardrailToolkit({ apiKey, baseUrl, agentId }), { stateSecret: SECRET, ...options });
  };

  const rpc = async (
    handler: Handler,
    method: string,
    params: Record<string, unknown>,
    capabilities: Record<string, unknown> = RENDERS_APPS,
  ) => {
    const { status, answer } = await modernRpc(URL_, method, params, { capabilities, fetch: handler });
    expect(status).toBe(200);
    return answer;
  };

  const call = (handler: Handler, name: string, args: Record<string, unknown>, capabilities?: Record<string, unknown>) =>
    rpc(handler, 'tools/call', { name, arguments: args }, capabilities);

  const purchase = () => ({
    cardId: world().approvalCard,
    summary: `GPU credits ${Math.random().toString(36).slice(2, 7)}`,
    expectedAmount: 2_500,
    expectedMerchant: 'OpenAI',
  });

  /** declare_intent on a card that needs a person, from a client that renders MCP Apps: the intent, its capability. */
  const declared = async (handler: Handler) => {
    const answer = await call(handler, 'declare_intent', purchase());
    const meta = answer.result._meta?.[CARD] as { intentId: string; capability: string };
    return { answer, intentId: meta.intentId, capability: meta.capability };
  };

  const statusOf = async (intentId: string) => (await world().api.intents.retrieve(intentId)).status;

  return { handlerFor, rpc, call, purchase, declared, statusOf };
}

/** The tool error a failed call carries in its text. */
export function errorOf(answer: RpcMessage) {
  expect(answer.result.isError).toBe(true);
  return JSON.parse(answer.result.content[0].text).error as { code: string; message: string; details?: any };
}
