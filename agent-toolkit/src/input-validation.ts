import { type OutputUnit, Validator } from '@cfworker/json-schema';
import type { JsonSchema, ToolInputSchema } from './generated-tool.js';
import { ToolError } from './tool-error.js';

/** One value of an input that its schema refuses. */
export interface InputProblem {
  /** Where, as a path of field names (`tolerance.percent`; `''` for the input itself). */
  field: string;
  /** Why, in words a model can act on (`must be an integer (got the string "25 dollars")`). */
  reason: string;
}

/** Keywords that only say a child failed: the child's own failure says what is wrong. */
const WRAPPERS = new Set(['properties', 'items', 'prefixItems', '$ref', 'allOf', 'false', 'additionalItems', 'unevaluatedItems']);

/** The schema a keyword location points at (`#/properties/tolerance/properties/percent/maximum` -> the `percent` schema). */
function schemaAt(root: JsonSchema, keywordLocation: string): JsonSchema | undefined {
  const parts = keywordLocation.replace(/^#\/?/, '').split('/').slice(0, -1);
  let node: unknown = root;
  for (const raw of parts) {
    const key = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node !== null && typeof node === 'object' ? (node as JsonSchema) : undefined;
}

function valueAt(input: unknown, instanceLocation: string): unknown {
  let node = input;
  for (const raw of instanceLocation.replace(/^#\/?/, '').split('/').filter(Boolean)) {
    const key = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${String(value)}`;
}

const TYPE_NAMES: Record<string, string> = {
  integer: 'an integer',
  number: 'a number',
  string: 'a string',
  boolean: 'true or false',
  object: 'an object',
  array: 'an array',
  null: 'null',
};

/** The reason of one failed keyword, from the keyword and the schema's own value for it. */
function reasonOf(unit: OutputUnit, schema: JsonSchema | undefined, value: unknown): string {
  const limit = schema?.[unit.keyword];
  switch (unit.keyword) {
    case 'type': {
      const types = (Array.isArray(limit) ? limit : [limit]).map((type) => TYPE_NAMES[String(type)] ?? String(type));
      return `must be ${types.join(' or ')} (got ${describeValue(value)})`;
    }
    case 'minimum':
      return `must be at least ${String(limit)} (got ${String(value)})`;
    case 'maximum':
      return `must be at most ${String(limit)} (got ${String(value)})`;
    case 'exclusiveMinimum':
      return `must be more than ${String(limit)} (got ${String(value)})`;
    case 'exclusiveMaximum':
      return `must be less than ${String(limit)} (got ${String(value)})`;
    case 'minLength':
      return `must be at least ${String(limit)} characters long`;
    case 'maxLength':
      return `must be at most ${String(limit)} characters long`;
    case 'pattern':
      return `must match the pattern ${String(limit)} (got ${describeValue(value)})`;
    case 'enum':
      return `must be one of ${(limit as unknown[]).map((item) => JSON.stringify(item)).join(', ')} (got ${describeValue(value)})`;
    case 'const':
      return `must be ${JSON.stringify(limit)}`;
    case 'format':
      return `must be a ${String(limit)} (got ${describeValue(value)})`;
    case 'minItems':
      return `must have at least ${String(limit)} items`;
    case 'maxItems':
      return `must have at most ${String(limit)} items`;
    case 'multipleOf':
      return `must be a multiple of ${String(limit)}`;
    case 'required': {
      const present = value !== null && typeof value === 'object' ? Object.keys(value) : [];
      const missing = ((limit as string[] | undefined) ?? []).filter((field) => !present.includes(field));
      return `needs ${missing.join(', ') || 'its required fields'}`;
    }
    case 'additionalProperties': {
      const known = Object.keys((schema?.properties as object | undefined) ?? {});
      const present = value !== null && typeof value === 'object' ? Object.keys(value) : [];
      const extra = present.filter((field) => !known.includes(field));
      return `does not take ${extra.join(', ')}; its fields are ${known.join(', ') || 'none'}`;
    }
    default:
      return unit.error.replace(/\.$/, '');
  }
}

const fieldOf = (instanceLocation: string) =>
  instanceLocation
    .replace(/^#\/?/, '')
    .split('/')
    .filter(Boolean)
    .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'))
    .join('.');

/**
 * A validator of a tool's input against its JSON Schema (draft 2020-12), run before any request: the problems it
 * finds, each with the field and the reason, become one `invalid_input` tool error. @cfworker/json-schema interprets
 * the schema (no code generated at run time), so it runs wherever the toolkit does, edge runtimes included.
 */
export function inputValidator(toolName: string, schema: ToolInputSchema): (input: unknown) => void {
  const validator = new Validator(schema, '2020-12', false);
  return (input) => {
    const { valid, errors } = validator.validate(input);
    if (valid) return;
    const problems: InputProblem[] = [];
    for (const unit of errors) {
      if (WRAPPERS.has(unit.keyword)) continue;
      const field = fieldOf(unit.instanceLocation);
      const reason = reasonOf(unit, schemaAt(schema, unit.keywordLocation), valueAt(input, unit.instanceLocation));
      if (!problems.some((known) => known.field === field && known.reason === reason)) problems.push({ field, reason });
    }
    if (problems.length === 0) problems.push({ field: '', reason: errors[0]?.error ?? 'does not fit the schema' });
    const [first] = problems as [InputProblem, ...InputProblem[]];
    const said = problems.map((problem) => `${problem.field || 'the input'} ${problem.reason}`).join('; ');
    throw new ToolError({
      code: 'invalid_input',
      message: `${toolName}: ${said}. Nothing was sent.`,
      details: { field: first.field, reason: first.reason, problems },
    });
  };
}
