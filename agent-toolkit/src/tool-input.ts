import type { GeneratedTool } from './generated-tool.js';
import { ToolError } from './tool-error.js';

/** A tool's input as an object, or an `invalid_input` error naming what is wrong. */
export type ToolInput = Record<string, unknown>;

function invalid(message: string, details?: Record<string, unknown>): ToolError {
  return new ToolError({ code: 'invalid_input', message, ...(details ? { details } : {}) });
}

/**
 * Checks the input's shape against the tool's schema: an object (absent counts as empty) with only the tool's
 * fields, its required ones present. Field values are the API's to judge (its `invalid_request` names the field); an
 * unknown field is refused here because the toolkit sets some fields itself (the agent, the exposure mode), which a
 * model must not be able to pass.
 */
export function readToolInput(tool: GeneratedTool, raw: unknown, required: readonly string[]): ToolInput {
  if (raw === undefined || raw === null) raw = {};
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    throw invalid(`The input of ${tool.name} must be a JSON object.`);
  }
  const input = raw as ToolInput;
  const allowed = Object.keys(tool.inputSchema.properties);
  const unknown = Object.keys(input).filter((field) => !allowed.includes(field));
  if (unknown.length > 0) {
    throw invalid(`${tool.name} does not take ${unknown.join(', ')}; its fields are ${allowed.join(', ') || 'none'}.`, {
      fields: unknown,
    });
  }
  const missing = required.filter((field) => input[field] === undefined);
  if (missing.length > 0) throw invalid(`${tool.name} needs ${missing.join(', ')}.`, { fields: missing });
  return { ...input };
}

/** An id field: a non-empty string, or `invalid_input` before anything is sent. */
export function readId(input: ToolInput, field: string): string | undefined {
  const value = input[field];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.trim() === '') throw invalid(`${field} must be a non-empty id string.`, { field });
  return value;
}
