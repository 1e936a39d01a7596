import { ProtocolErrorCode } from '@modelcontextprotocol/server';

/**
 * The answer to a JSON-RPC batch (an array of messages), or undefined for anything else. MCP removed batches in
 * 2025-06-18, and neither revision this server serves (2025-11-25, 2026-07-28) has them; the SDK still runs one, which
 * would put its calls past the authenticator (it is told one call per request) and the params guard: refused, 400,
 * before any MCP handling.
 */
export function batchRefusal(message: unknown): Response | undefined {
  if (!Array.isArray(message)) return undefined;
  return Response.json(
    {
      jsonrpc: '2.0',
      id: null,
      error: {
        code: ProtocolErrorCode.InvalidRequest,
        message: 'JSON-RPC batches are not part of MCP since 2025-06-18: send one message per request.',
      },
    },
    { status: 400 },
  );
}
