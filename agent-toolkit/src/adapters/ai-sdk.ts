import { jsonSchema, tool, type Tool } from 'ai';
import type { ToolName } from '../generated/tool-schemas.js';
import type { CardrailToolkit } from '../toolkit.js';

/**
 * The toolkit's tools as Vercel AI SDK tools (`generateText({ tools })`, `streamText`, agents), keyed by name. Their
 * input schemas are the spec-derived JSON Schemas (through `jsonSchema()`, no zod). A failed call throws the
 * `ToolError`, which the AI SDK hands the model as a tool error with the API's code and message.
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
