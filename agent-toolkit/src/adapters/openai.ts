import type { ToolInputSchema } from '../generated-tool.js';
import type { CardrailToolkit } from '../toolkit.js';
import { fromStrictArguments, toStrictSchema } from './openai-strict.js';

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
    /** The input, as JSON Schema (strict mode's subset unless `strict: false` was asked for). */
    parameters: ToolInputSchema;
    /** Strict mode: the model's arguments always fit `parameters`. */
    strict: boolean;
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
  /** The input, as JSON Schema (strict mode's subset unless `strict: false` was asked for). */
  parameters: ToolInputSchema;
  /** Strict mode: the model's arguments always fit `parameters`. */
  strict: boolean;
}

/** Options of `toOpenAITools` and `toOpenAIResponsesTools`. */
export interface OpenAIToolsOptions {
  /**
   * `true` (default): strict mode, which models follow more reliably. Every field is required and the ones that may
   * be left out take null (`runOpenAIToolCall` reads null there as left out); what strict mode cannot state (lengths,
   * defaults) is in the field's description, and the toolkit checks every call against the full schema anyway.
   * `false`: the toolkit's schemas as they are.
   */
  strict?: boolean | undefined;
}

function parametersOf(schema: ToolInputSchema, strict: boolean): ToolInputSchema {
  return strict ? toStrictSchema(schema) : structuredClone(schema);
}

/**
 * The toolkit's tools as OpenAI Chat Completions function tools (plain JSON, no dependency), in strict mode.
 *
 * @example
 * ```ts
 * const completion = await openai.chat.completions.create({ model: 'gpt-4.1', messages, tools: toOpenAITools(toolkit) });
 * ```
 */
export function toOpenAITools(toolkit: CardrailToolkit, options: OpenAIToolsOptions = {}): OpenAIChatFunctionTool[] {
  const strict = options.strict ?? true;
  return toolkit.tools.map((tool) => ({
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: parametersOf(tool.inputSchema, strict), strict },
  }));
}

/** The toolkit's tools as OpenAI Responses API function tools, in strict mode (see `toOpenAITools`). */
export function toOpenAIResponsesTools(
  toolkit: CardrailToolkit,
  options: OpenAIToolsOptions = {},
): OpenAIResponsesFunctionTool[] {
  const strict = options.strict ?? true;
  return toolkit.tools.map((tool) => ({
    type: 'function',
    name: tool.name,
    description: tool.description,
    parameters: parametersOf(tool.inputSchema, strict),
    strict,
  }));
}

/**
 * Runs a function call the model made (a Chat Completions `tool_call.function` or a Responses `function_call`
 * item: `name` and the JSON text `arguments`) and returns the text to send back as the tool's output: the result's
 * JSON, or `{"error":{"code","message",...}}`. Null in a field that may be left out (strict mode's way of leaving it
 * out) counts as left out. Pass the call's id (`call.id`, `call_id`) as `callId` so that a call sent twice is
 * carried out once. Never throws.
 */
export async function runOpenAIToolCall(
  toolkit: CardrailToolkit,
  call: { name: string; arguments: string; id?: string | undefined; call_id?: string | undefined },
): Promise<string> {
  let input: unknown;
  try {
    input = call.arguments.trim() === '' ? {} : JSON.parse(call.arguments);
  } catch {
    return JSON.stringify({ error: { code: 'invalid_input', message: `The arguments of ${call.name} are not valid JSON.` } });
  }
  const tool = toolkit.tools.find((candidate) => candidate.name === call.name);
  if (tool !== undefined) input = fromStrictArguments(tool.inputSchema, input);
  const callId = call.call_id ?? call.id;
  const result = await toolkit.call(call.name, input, callId === undefined ? {} : { callId });
  return JSON.stringify(result.ok ? result.data : { error: result.error });
}
