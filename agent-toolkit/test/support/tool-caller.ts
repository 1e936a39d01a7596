import type { Client } from '@modelcontextprotocol/client';
import { compileToolSchema } from './schema-validator.js';

/** One tool call as the scenarios see it: whether it failed, the JSON it answered, and what else it said. */
export interface ToolAnswer {
  isError: boolean;
  payload: any; // the tools answer JSON; scenarios read its fields
  /** The texts after the JSON: the next step for the model, and notes. */
  said: string[];
}

export type ToolCaller = (name: string, args?: Record<string, unknown>) => Promise<ToolAnswer>;

/**
 * Calls tools through an MCP client. The first text content of every answer is JSON; a success answers the same
 * data as `structuredContent`, which must be valid against the tool's `outputSchema` as `tools/list` gave it (Ajv,
 * draft 2020-12, formats checked).
 */
export function mcpCaller(client: Client): ToolCaller {
  let outputs: Promise<Map<string, ReturnType<typeof compileToolSchema>>> | undefined;
  return async (name, args = {}) => {
    outputs ??= client
      .listTools()
      .then(({ tools }) => new Map(tools.map((tool) => [tool.name, compileToolSchema(tool.outputSchema ?? {})])));
    const result = await client.callTool({ name, arguments: args });
    const content = result.content as { type: string; text?: string }[];
    if (content.length === 0 || content.some((block) => block.type !== 'text' || typeof block.text !== 'string')) {
      throw new Error(`Expected text content only, got ${JSON.stringify(content)}`);
    }
    const [json, ...said] = content.map((block) => block.text as string);
    const payload = JSON.parse(json as string);
    if (result.isError !== true && JSON.stringify(result.structuredContent) !== JSON.stringify(payload)) {
      throw new Error(`structuredContent differs from the JSON text: ${JSON.stringify(result.structuredContent)}`);
    }
    if (result.isError === true && result.structuredContent !== undefined) throw new Error('An error carries structuredContent');
    const validate = (await outputs).get(name);
    if (result.isError !== true && validate !== undefined && !validate(result.structuredContent)) {
      throw new Error(`${name}: structuredContent is not valid against its outputSchema: ${JSON.stringify(validate.errors)}`);
    }
    return { isError: result.isError === true, payload, said };
  };
}
