import type { Client } from '@modelcontextprotocol/sdk/client/index.js';

/** One tool call as the scenarios see it: whether it failed, and the JSON it answered. */
export interface ToolAnswer {
  isError: boolean;
  payload: any; // the tools answer JSON; scenarios read its fields
}

export type ToolCaller = (name: string, args?: Record<string, unknown>) => Promise<ToolAnswer>;

/** Calls tools through an MCP client; the text content of every answer must be JSON. */
export function mcpCaller(client: Client): ToolCaller {
  return async (name, args = {}) => {
    const result = await client.callTool({ name, arguments: args });
    const content = result.content as { type: string; text?: string }[];
    if (content.length !== 1 || content[0]?.type !== 'text' || typeof content[0].text !== 'string') {
      throw new Error(`Expected one text content, got ${JSON.stringify(content)}`);
    }
    return { isError: result.isError === true, payload: JSON.parse(content[0].text) };
  };
}
