// OpenAI's rules for a function tool in strict mode, written down from OpenAI's documentation (the Structured Outputs
// guide, "Supported schemas", which function calling with `strict: true` follows; and the function calling guide),
// as read on 2026-11-26. Independent of the toolkit's own conversion (src/adapters/openai-strict.ts): this is what
// the API refuses ("Invalid schema for function ...") or does not honour.
//
//  1. The root is an object (`type: "object"`), not `anyOf`.
//  2. Every object sets `additionalProperties: false`.
//  3. Every object lists all its properties in `required`; an optional field is a union with `null`.
//  4. Types are string, number, integer, boolean, object, array and null; `enum`, `const` and `anyOf` combine them.
//  5. Keywords are those listed as supported: for strings `pattern` and `format`; for numbers `multipleOf`, `minimum`,
//     `maximum`, `exclusiveMinimum`, `exclusiveMaximum`; for arrays `items`, `minItems`, `maxItems`; for objects
//     `properties`, `required`, `additionalProperties`; `description`, `$ref` and `$defs` anywhere. Not supported:
//     `allOf`, `not`, `if`/`then`/`else`, `dependentRequired`, `dependentSchemas`, `oneOf`, `patternProperties`,
//     `unevaluatedProperties`, `propertyNames`, `minProperties`, `maxProperties`, `minLength`, `maxLength`,
//     `uniqueItems`, `contains`, `minContains`, `maxContains`, `unevaluatedItems`, `default`, `examples`...
//  6. `format` is one of date-time, time, date, duration, email, hostname, ipv4, ipv6, uuid.
//  7. At most 5000 object properties in all, and 10 levels of nesting.
//  8. At most 120 000 characters of property names, definition names, enum values and const values in all.
//  9. At most 1000 enum values in all; a string enum of more than 250 values has at most 15 000 characters.
// 10. The function's name is 1 to 64 letters, digits, underscores or dashes.

const SUPPORTED = new Set([
  'type',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'enum',
  'const',
  'anyOf',
  'description',
  '$ref',
  '$defs',
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
const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);
const FORMATS = new Set(['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'ipv4', 'ipv6', 'uuid']);

type Schema = Record<string, unknown>;

/** Every rule a function tool breaks, each as `where: what`; empty when strict mode takes it. */
export function strictModeViolations(name: string, parameters: Schema): string[] {
  const found: string[] = [];
  if (!/^[a-zA-Z0-9_-]{1,64}$/.test(name)) found.push(`name: ${JSON.stringify(name)} is not 1 to 64 of [a-zA-Z0-9_-] (rule 10)`);
  if (parameters.type !== 'object' || 'anyOf' in parameters) found.push('#: the root must be an object, not anyOf (rule 1)');
  let properties = 0;
  let characters = 0;
  let enumValues = 0;

  const visit = (schema: unknown, where: string, depth: number): void => {
    if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) {
      found.push(`${where}: not a schema`);
      return;
    }
    const node = schema as Schema;
    for (const keyword of Object.keys(node)) {
      if (!SUPPORTED.has(keyword)) found.push(`${where}: keyword ${keyword} is not supported (rule 5)`);
    }
    const types = node.type === undefined ? [] : Array.isArray(node.type) ? node.type : [node.type];
    for (const type of types) if (!TYPES.has(String(type))) found.push(`${where}: type ${String(type)} (rule 4)`);
    if ('format' in node && !FORMATS.has(String(node.format))) found.push(`${where}: format ${String(node.format)} (rule 6)`);
    if (Array.isArray(node.enum)) {
      enumValues += node.enum.length;
      const text = node.enum.filter((value) => typeof value === 'string').join('');
      characters += text.length;
      if (node.enum.length > 250 && text.length > 15_000)
        found.push(`${where}: enum of more than 250 values over 15 000 characters (rule 9)`);
    }
    if (typeof node.const === 'string') characters += node.const.length;
    const isObject = types.includes('object') || 'properties' in node;
    if (isObject) {
      if (depth > 10) found.push(`${where}: nested deeper than 10 levels (rule 7)`);
      if (node.additionalProperties !== false) found.push(`${where}: additionalProperties must be false (rule 2)`);
      const names = Object.keys((node.properties as Schema | undefined) ?? {});
      properties += names.length;
      characters += names.join('').length;
      const required = new Set((node.required as string[] | undefined) ?? []);
      for (const field of names) if (!required.has(field)) found.push(`${where}: property ${field} is not required (rule 3)`);
      for (const field of required)
        if (!names.includes(field)) found.push(`${where}: requires ${field}, which it does not define`);
      for (const field of names) visit((node.properties as Schema)[field], `${where}/properties/${field}`, depth + 1);
    }
    if (node.items !== undefined) visit(node.items, `${where}/items`, depth + 1);
    if (Array.isArray(node.anyOf)) {
      for (const [i, item] of node.anyOf.entries()) visit(item, `${where}/anyOf/${i}`, depth);
    }
    if (node.$defs !== undefined) {
      for (const [key, item] of Object.entries(node.$defs as Schema)) {
        characters += key.length;
        visit(item, `${where}/$defs/${key}`, depth);
      }
    }
  };

  visit(parameters, '#', 1);
  if (properties > 5000) found.push(`#: ${properties} properties in all, more than 5000 (rule 7)`);
  if (characters > 120_000) found.push(`#: ${characters} characters of names and values, more than 120 000 (rule 8)`);
  if (enumValues > 1000) found.push(`#: ${enumValues} enum values in all, more than 1000 (rule 9)`);
  return found;
}
