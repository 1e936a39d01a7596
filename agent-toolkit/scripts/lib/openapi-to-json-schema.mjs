// Turns an OpenAPI 3.1 schema of a bundled document into self-contained JSON Schema (draft 2020-12): every `$ref`
// inlined, OpenAPI-only keywords (`example`, `discriminator`, `x-*`, ...) removed, so MCP clients, the AI SDK and
// OpenAI take it as it is. Anything that is neither JSON Schema nor a known OpenAPI keyword fails the generation
// instead of reaching a model.

/** Keywords whose value is one schema. */
const SCHEMA_KEYWORDS = new Set([
  'items',
  'not',
  'additionalProperties',
  'if',
  'then',
  'else',
  'contains',
  'propertyNames',
  'unevaluatedProperties',
  'unevaluatedItems',
  'contentSchema',
]);
/** Keywords whose value is a list of schemas. */
const SCHEMA_LIST_KEYWORDS = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems']);
/** Keywords whose value maps names to schemas. */
const SCHEMA_MAP_KEYWORDS = new Set(['properties', 'patternProperties', 'dependentSchemas']);
/** Keywords kept as they are (values, numbers, strings, annotations). */
const VALUE_KEYWORDS = new Set([
  'type',
  'enum',
  'const',
  'default',
  'examples',
  'title',
  'description',
  'format',
  'pattern',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minItems',
  'maxItems',
  'uniqueItems',
  'minContains',
  'maxContains',
  'minProperties',
  'maxProperties',
  'required',
  'dependentRequired',
  'deprecated',
  'readOnly',
  'writeOnly',
  'contentEncoding',
  'contentMediaType',
]);
/** OpenAPI's own keywords, meaningless to a JSON Schema validator. */
const OPENAPI_ONLY_KEYWORDS = new Set(['example', 'discriminator', 'xml', 'externalDocs', 'nullable']);

const SECTION_REFERENCE = /\s*\((?:service specification, )?sections? [0-9][0-9.]*(?:, [0-9][0-9.]*)*\)/g;

/**
 * Spec descriptions may still cite sections of the service specification, which a user of the package does not
 * have: the parenthesised form is dropped, any other mention fails the generation.
 */
export function cleanDescription(text, where) {
  const cleaned = text.replace(SECTION_REFERENCE, '');
  if (/\bsections? [0-9]/i.test(cleaned)) {
    throw new Error(`${where}: the description cites a section of a document users do not have: ${JSON.stringify(text)}`);
  }
  return cleaned;
}

/** The target of a local `$ref` such as `#/components/schemas/Card`. */
export function resolvePointer(document, ref) {
  if (!ref.startsWith('#/')) throw new Error(`Only local references are supported, got ${ref}`);
  let node = document;
  for (const raw of ref.slice(2).split('/')) {
    const key = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    if (node === null || typeof node !== 'object' || !(key in node)) throw new Error(`Unresolvable reference ${ref}`);
    node = node[key];
  }
  return node;
}

/**
 * The self-contained JSON Schema of `schema`. A `$ref` is replaced by its target, with the keywords beside it
 * (OpenAPI 3.1 allows `description` next to `$ref`) taking precedence. Recursive schemas cannot be inlined and fail.
 */
export function toJsonSchema(document, schema, where, seen = []) {
  if (schema === true || schema === false) return schema;
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) throw new Error(`${where}: not a schema`);
  if (typeof schema.$ref === 'string') {
    if (seen.includes(schema.$ref)) throw new Error(`${where}: recursive reference ${schema.$ref} cannot be inlined`);
    const { $ref, ...siblings } = schema;
    const target = toJsonSchema(document, resolvePointer(document, $ref), `${where} -> ${$ref}`, [...seen, $ref]);
    return { ...target, ...toJsonSchema(document, siblings, where, seen) };
  }
  const out = {};
  for (const [keyword, value] of Object.entries(schema)) {
    if (keyword.startsWith('x-') || OPENAPI_ONLY_KEYWORDS.has(keyword)) continue;
    const at = `${where}/${keyword}`;
    if (SCHEMA_KEYWORDS.has(keyword)) out[keyword] = toJsonSchema(document, value, at, seen);
    else if (SCHEMA_LIST_KEYWORDS.has(keyword))
      out[keyword] = value.map((item, i) => toJsonSchema(document, item, `${at}/${i}`, seen));
    else if (SCHEMA_MAP_KEYWORDS.has(keyword)) {
      out[keyword] = Object.fromEntries(
        Object.entries(value).map(([name, item]) => [name, toJsonSchema(document, item, `${at}/${name}`, seen)]),
      );
    } else if (keyword === 'description') out[keyword] = cleanDescription(value, at);
    else if (VALUE_KEYWORDS.has(keyword)) out[keyword] = value;
    else throw new Error(`${at}: unsupported keyword ${JSON.stringify(keyword)} (neither JSON Schema 2020-12 nor known OpenAPI)`);
  }
  return out;
}
