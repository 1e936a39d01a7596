/**
 * The toolkit as Vercel AI SDK tools (`toAISDKTools`). `ai` 6 or 7 is a peer dependency.
 *
 * @module @cardrail/agent-toolkit/ai-sdk
 */
import { jsonSchema, tool, type Tool } from 'ai';
import type { ToolName } from '../generated/tool-schemas.js';
import type { CardrailToolkit } from '../toolkit.js';

/**
 * The toolkit's tools as Vercel AI SDK tools (`generateText({ tools })`, `streamText`, agents), keyed by name. Their
 * input schemas are the spec-derived JSON Schemas (through `jsonSchema()`, no zod). A failed call throws the
 * `ToolError`, which the AI SDK hands the model as a tool error with the API's code and message.
 *
 * @example
 * ```ts
 * const { text } = await generateText({
 *   model,
 *   tools: toAISDKTools(toolkit),
 *   stopWhen: stepCountIs(10),
 *   prompt: 'Buy 25 dollars of GPU credits from OpenAI.',
 * });
 * ```
 */
export function toAISDKTools(toolkit: CardrailToolkit): Record<ToolName, Tool<Record<string, unknown>, unknown>> {
  const entries = toolkit.tools.map((cardrailTool) => [
    cardrailTool.name,
    tool({
      description: cardrailTool.description,
      inputSchema: jsonSchema<Record<string, unknown>>(structuredClone(cardrailTool.inputSchema)),
      execute: (input) => toolkit.run(cardrailTool.name, input),
    }),
  ]);
  return Object.fromEntries(entries) as Record<ToolName, Tool<Record<string, unknown>, unknown>>;
}
