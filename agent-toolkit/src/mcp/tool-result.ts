import type { CallToolResult } from '@modelcontextprotocol/server';
import type { ToolResult } from '../toolkit.js';

/**
 * A tool's answer as MCP carries it: the data as `structuredContent` (valid against the tool's `outputSchema`) and
 * as JSON text for clients that read only text, then the next step and any note as text of their own. A failure is
 * `isError` with the text `{"error":{...}}`.
 */
export function callToolResult(result: ToolResult, note?: string): CallToolResult {
  if (!result.ok) return { isError: true, content: [{ type: 'text', text: JSON.stringify({ error: result.error }) }] };
  const said = [note, result.nextStep].filter((text): text is string => text !== undefined);
  return {
    content: [{ type: 'text', text: JSON.stringify(result.data) }, ...said.map((text) => ({ type: 'text' as const, text }))],
    structuredContent: result.data as Record<string, unknown>,
  };
}
