import type { JsonSchema, ToolInputSchema } from '../generated-tool.js';

// OpenAI's strict mode (Structured Outputs for function calling) accepts a subset of JSON Schema: every object closed
// (`additionalProperties: false`) and listing all its properties in `required`, an optional field written as a union
// with null, and only some keywords. A tool schema is turned into that subset here, without losing what it says:
// what strict mode cannot state moves into the field's description, and every call is still checked against the
// full schema before anything is sent.

/** Keywords strict mode takes, by what they apply to. */
const KEPT = new Set([
  'type',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'enum',
  'const',
  'anyOf',
  'description',
  'pattern',
  'format',
  'multipleOf',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minItems',
  'maxItems',
]);

/** The string formats strict mode knows; another (`int64`, an OpenAPI format) is dropped. */
const STRICT_FORMATS = new Set(['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'ipv4', 'ipv6', 'uuid']);

/** What a dropped keyword said, as words for the description. */
function said(schema: JsonSchema): string[] {
  const words: string[] = [];
  const { minLength, maxLength } = schema;
  if (typeof minLength === 'number' && typeof maxLength === 'number') words.push(`${minLength} to ${maxLength} characters.`);
  else if (typeof minLength === 'number' && minLength > 0) words.push(`At least ${minLength} characters.`);
  else if (typeof maxLength === 'number') words.push(`At most ${maxLength} characters.`);
  if (schema.default !== undefined) words.push(`Default ${JSON.stringify(schema.default)} (send null for it).`);
  return words;
}

/** A schema that also accepts null: how strict mode writes a field that may be left out. */
function nullable(schema: JsonSchema): JsonSchema {
  const { type } = schema;
  if (Array.isArray(schema.enum) && !schema.enum.includes(null)) schema.enum = [...schema.enum, null];
  if (typeof type === 'string') return { ...schema, type: type === 'null' ? type : [type, 'null'] };
  if (Array.isArray(type)) return type.includes('null') ? schema : { ...schema, type: [...type, 'null'] };
  if (Array.isArray(schema.anyOf)) return { ...schema, anyOf: [...schema.anyOf, { type: 'null' }] };
  return { anyOf: [schema, { type: 'null' }] };
}

function strictNode(schema: JsonSchema): JsonSchema {
  const out: JsonSchema = {};
  for (const [keyword, value] of Object.entries(schema)) {
    if (!KEPT.has(keyword)) continue;
    if (keyword === 'format' && !STRICT_FORMATS.has(String(value))) continue;
    out[keyword] = value;
  }
  const extra = said(schema);
  if (extra.length > 0) out.description = [schema.description, ...extra].filter(Boolean).join(' ');
  if (Array.isArray(schema.anyOf)) out.anyOf = schema.anyOf.map((item) => strictNode(item as JsonSchema));
  if (schema.items !== undefined && typeof schema.items === 'object') out.items = strictNode(schema.items as JsonSchema);
  if (schema.properties !== undefined && typeof schema.properties === 'object') {
    const required = new Set((schema.required as string[] | undefined) ?? []);
    const properties: Record<string, JsonSchema> = {};
    for (const [name, child] of Object.entries(schema.properties as Record<string, JsonSchema>)) {
      const strict = strictNode(child);
      properties[name] = required.has(name) ? strict : nullable(strict);
    }
    out.properties = properties;
    out.required = Object.keys(properties);
    out.additionalProperties = false;
  }
  return out;
}

/** A tool's input schema as OpenAI's strict mode takes it (see above). */
export function toStrictSchema(schema: ToolInputSchema): ToolInputSchema {
  return strictNode(structuredClone(schema)) as ToolInputSchema;
}

const acceptsNull = (schema: JsonSchema | undefined) =>
  schema?.type === 'null' ||
  (Array.isArray(schema?.type) && schema.type.includes('null')) ||
  (Array.isArray(schema?.enum) && schema.enum.includes(null));

/**
 * Arguments a model sent under strict mode, as the tool's own schema takes them: null in a field that may be left
 * out (and does not take null itself) means it was left out, nested objects included. Anything else is left as it
 * came, for the toolkit to check.
 */
export function fromStrictArguments(schema: JsonSchema, value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required as string[] | undefined) ?? []);
  const out: Record<string, unknown> = {};
  for (const [name, item] of Object.entries(value)) {
    if (item === null && !required.has(name) && name in properties && !acceptsNull(properties[name])) continue;
    out[name] = properties[name] ? fromStrictArguments(properties[name], item) : item;
  }
  return out;
}
