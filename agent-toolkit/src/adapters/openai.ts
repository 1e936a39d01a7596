import type { ToolInputSchema } from '../generated-tool.js';
import type { CardrailToolkit } from '../toolkit.js';

/** A function tool of OpenAI's Chat Completions API (`tools` of `chat.completions.create`). */
export interface OpenAIChatFunctionTool {
  /** Always `function`. */
  type: 'function';
  /** The function the model may call. */
  function: {
    /** The tool's name. */
    name: string;
    /** What the tool does and when to call it. */
    description: string;
    /** The input, as JSON Schema. */
    parameters: ToolInputSchema;
    /** Strict mode off: it would make every optional field required. */
    strict: false;
  };
}

/** A function tool of OpenAI's Responses API (`tools` of `responses.create`). */
export interface OpenAIResponsesFunctionTool {
  /** Always `function`. */
  type: 'function';
  /** The tool's name. */
  name: string;
  /** What the tool does and when to call it. */
  description: string;
  /** The input, as JSON Schema. */
  parameters: ToolInputSchema;
  /** Strict mode off: it would make every optional field required. */
  strict: false;
}

// `strict: false`: strict mode asks for every property to be required, and the spec's optional fields are optional.

/** The toolkit's tools as OpenAI Chat Completions function tools (plain JSON, no dependency). */
export function toOpenAITools(toolkit: CardrailToolkit): OpenAIChatFunctionTool[] {
  return toolkit.tools.map((tool) => ({
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: structuredClone(tool.inputSchema), strict: false },
  }));
}

/** The toolkit's tools as OpenAI Responses API function tools. */
export function toOpenAIResponsesTools(toolkit: CardrailToolkit): OpenAIResponsesFunctionTool[] {
  return toolkit.tools.map((tool) => ({
    type: 'function',
    name: tool.name,
    description: tool.description,
    parameters: structuredClone(tool.inputSchema),
    strict: false,
  }));
}

/**
 * Runs a function call the model made (a Chat Completions `tool_call.function` or a Responses `function_call`
 * item: `name` and the JSON text `arguments`) and returns the text to send back as the tool's output: the result's
 * JSON, or `{"error":{"code","message",...}}`. Never throws.
 */
export async function runOpenAIToolCall(toolkit: CardrailToolkit, call: { name: string; arguments: string }): Promise<string> {
  let input: unknown;
  try {
    input = call.arguments.trim() === '' ? {} : JSON.parse(call.arguments);
  } catch {
    return JSON.stringify({ error: { code: 'invalid_input', message: `The arguments of ${call.name} are not valid JSON.` } });
  }
  const result = await toolkit.call(call.name, input);
  return JSON.stringify(result.ok ? result.data : { error: result.error });
}
