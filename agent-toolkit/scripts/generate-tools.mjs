#!/usr/bin/env node
// Derives each tool's input and output JSON Schemas and its description from the bundled spec of both variants and
// writes them to src/generated/tool-schemas.ts. A tool's input is its operation's path and query parameters and
// JSON body properties, flattened into one object, less the fields the toolkit fixes, plus the toolkit's own fields
// (tool-catalog.mjs); its output is the operation's success response body.
//
//   node scripts/generate-tools.mjs            write the file
//   node scripts/generate-tools.mjs --check    write nothing; fail when the committed file is stale
//   --out <file>                               another target (tests)
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { cleanDescription, resolvePointer, toJsonSchema } from './lib/openapi-to-json-schema.mjs';
import { appToolCatalog, toolCatalog } from './tool-catalog.mjs';
import { firstDifference } from '../../scripts/lib/first-difference.mjs';

const packageRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const repoRoot = resolve(packageRoot, '..');

export const VARIANTS = ['customer', 'user'];

/**
 * The bundled OpenAPI document of a variant. The only place that knows where the bundles live: when the spec
 * workspace exports them, this function is what changes.
 */
export function readBundle(variant) {
  const file = join(repoRoot, 'spec', 'dist', `${variant}.json`);
  if (!existsSync(file))
    throw new Error(`${relative(repoRoot, file)} is missing: run \`npm run generate\` at the repository root.`);
  return JSON.parse(readFileSync(file, 'utf8'));
}

const deref = (document, node) => (node && typeof node.$ref === 'string' ? resolvePointer(document, node.$ref) : node);

/** What the catalog states of every tool's behaviour (MCP's tool annotations, and whether a person may be asked). */
export const HINTS = ['readOnly', 'destructive', 'idempotent', 'openWorld', 'mayNeedPerson'];

/**
 * The flattened input schema and the description of one catalog tool in one variant's document. An app tool's
 * description is its guidance alone: a host and a developer read it, never a model.
 */
export function deriveTool(document, tool, variant, { appOnly = false } = {}) {
  const where = `${variant} ${tool.method.toUpperCase()} ${tool.path}`;
  const unstated = HINTS.filter((hint) => typeof tool[hint] !== 'boolean');
  if (unstated.length > 0) throw new Error(`${where}: the catalog does not state ${unstated.join(', ')} of tool ${tool.name}`);
  const pathItem = document.paths?.[tool.path];
  const operation = pathItem?.[tool.method];
  if (!operation) throw new Error(`${where}: no such operation in the ${variant} spec (tool ${tool.name})`);

  const properties = {};
  const required = [];
  const add = (name, schema, isRequired, source) => {
    if (name in properties) throw new Error(`${where}: ${name} appears twice in the tool input (again as ${source})`);
    properties[name] = schema;
    if (isRequired) required.push(name);
  };

  const parameters = [...(pathItem.parameters ?? []), ...(operation.parameters ?? [])].map((p) => deref(document, p));
  for (const parameter of parameters) {
    if (parameter.in !== 'path' && parameter.in !== 'query') continue;
    const schema = toJsonSchema(document, parameter.schema, `${where} parameter ${parameter.name}`);
    // The parameter's own description says what it does here; the schema's is generic.
    if (parameter.description)
      schema.description = cleanDescription(parameter.description, `${where} parameter ${parameter.name}`);
    add(parameter.name, schema, parameter.in === 'path' || parameter.required === true, `${parameter.in} parameter`);
  }

  const requestBody = deref(document, operation.requestBody);
  const bodySchema = requestBody?.content?.['application/json']?.schema;
  if (bodySchema) {
    const body = toJsonSchema(document, bodySchema, `${where} request body`);
    if (body.type !== 'object' || typeof body.properties !== 'object') {
      throw new Error(`${where}: the request body is not an object with properties, so it cannot be a tool input`);
    }
    const bodyRequired = requestBody.required === true ? (body.required ?? []) : [];
    for (const [name, schema] of Object.entries(body.properties)) add(name, schema, bodyRequired.includes(name), 'body property');
  }

  for (const [name, schema] of Object.entries(tool.toolkitInput ?? {}))
    add(name, structuredClone(schema), (tool.toolkitRequired ?? []).includes(name), 'toolkit field');
  for (const name of tool.toolkitRequired ?? []) {
    if (!(name in (tool.toolkitInput ?? {})))
      throw new Error(`${where}: ${name} is required but not a toolkit field (tool ${tool.name})`);
  }

  for (const name of tool.fixed ?? []) {
    if (!(name in properties))
      throw new Error(`${where}: the toolkit fixes ${name}, which the operation no longer has (tool ${tool.name})`);
  }
  for (const name of [...(tool.fixed ?? []), ...(tool.fixedWhenPresent ?? [])]) {
    delete properties[name];
    const at = required.indexOf(name);
    if (at !== -1) required.splice(at, 1);
  }

  const inputSchema = { type: 'object', properties, ...(required.length > 0 ? { required } : {}), additionalProperties: false };
  const outputSchema = successSchema(document, operation, where);
  for (const [name, schema] of Object.entries(tool.toolkitOutput ?? {})) {
    if (name in (outputSchema.properties ?? {}))
      throw new Error(`${where}: the toolkit's output field ${name} collides with a field of the answer (tool ${tool.name})`);
    outputSchema.properties[name] = structuredClone(schema);
    outputSchema.required = [...(outputSchema.required ?? []), name];
  }
  const specText = [operation.summary, operation.description]
    .filter((text) => typeof text === 'string' && text.length > 0)
    .map((text) => cleanDescription(text.trim().replace(/([^.])$/, '$1.'), `${where} description`))
    .join(' ');
  return {
    name: tool.name,
    title: tool.title,
    operationId: operation.operationId,
    method: tool.method.toUpperCase(),
    path: tool.path,
    ...Object.fromEntries(HINTS.map((hint) => [hint, tool[hint]])),
    description: appOnly ? tool.guidance : `${specText}\n\n${tool.guidance}`,
    inputSchema,
    outputSchema,
  };
}

/** The JSON body of the operation's success answer (200 or 201) as a self-contained schema: what the tool returns. */
function successSchema(document, operation, where) {
  const status = ['200', '201'].find((code) => operation.responses?.[code]);
  const response = deref(document, operation.responses?.[status]);
  const schema = response?.content?.['application/json']?.schema;
  if (!schema) throw new Error(`${where}: no JSON success response to derive the tool's output from`);
  const output = toJsonSchema(document, schema, `${where} response ${status}`);
  if (output.type !== 'object') throw new Error(`${where}: the success response is not an object, so it cannot be a tool output`);
  return output;
}

/**
 * The schemas the tools use, each written once: a schema both variants derive alike (an intent, a card's policy) is
 * one constant that both tool sets refer to, which halves what the package carries.
 */
class SchemaTable {
  #byText = new Map();
  #names = new Set();
  declarations = [];

  /**
   * A reference to `schema`, declaring it on first use as a constant named after its tool (`declareIntentOutput`), or
   * after its tool and variant when the variants differ (`evaluateSpendUserOutput`).
   */
  refer(schema, name, variantName) {
    const text = JSON.stringify(schema, null, 2);
    const known = this.#byText.get(text);
    if (known) return known;
    const unique = this.#names.has(name) ? variantName : name;
    if (this.#names.has(unique)) throw new Error(`Two schemas would be named ${unique}`);
    this.#names.add(unique);
    this.#byText.set(text, unique);
    this.declarations.push(`const ${unique}: JsonSchema = ${text};\n`);
    return unique;
  }
}

const camel = (name) => name.replace(/_([a-z])/g, (_, letter) => letter.toUpperCase());

/** One variant's tool set as TypeScript: `export const <name>: <type> = { tool: {...}, ... };`. */
function renderSet(table, documents, catalog, variant, name, type, options) {
  const tools = catalog.map((tool) => {
    const { inputSchema, outputSchema, ...rest } = deriveTool(documents[variant], tool, variant, options);
    const named = (kind) => [`${camel(tool.name)}${kind}`, `${camel(`${tool.name}_${variant}`)}${kind}`];
    const input = table.refer(inputSchema, ...named('Input'));
    const output = table.refer(outputSchema, ...named('Output'));
    const fields = JSON.stringify(rest, null, 2).replace(/\n\}$/, '');
    const typed = (reference, schemaType) => `${reference} as ${schemaType}`;
    return `  ${JSON.stringify(tool.name)}: ${fields.replaceAll('\n', '\n  ')},\n    "inputSchema": ${typed(input, 'ToolInputSchema')},\n    "outputSchema": ${typed(output, 'ToolOutputSchema')}\n  }`;
  });
  return `export const ${name}: ${type} = {\n${tools.join(',\n')}\n};\n`;
}

export function renderToolSchemas(documents) {
  const names = toolCatalog.map((tool) => tool.name);
  const appNames = appToolCatalog.map((tool) => tool.name);
  const clash = appNames.find((name) => names.includes(name));
  if (clash) throw new Error(`${clash} is both a catalog tool and an app tool`);
  const table = new SchemaTable();
  const sets = VARIANTS.map((variant) =>
    renderSet(table, documents, toolCatalog, variant, `${variant}Tools`, 'GeneratedToolSet'),
  );
  const appSets = VARIANTS.map((variant) =>
    renderSet(table, documents, appToolCatalog, variant, `${variant}AppTools`, 'GeneratedAppToolSet', { appOnly: true }),
  );
  return [
    '/**',
    ' * Generated by `npm run generate` (agent-toolkit/scripts/generate-tools.mjs) from the bundled spec of each variant',
    ' * and scripts/tool-catalog.mjs. Do not edit by hand.',
    ' */',
    "import type { GeneratedTool, JsonSchema, ToolInputSchema, ToolOutputSchema } from '../generated-tool.js';",
    '',
    '/** The names of the tools, in the order the toolkit offers them. */',
    `export const TOOL_NAMES = ${JSON.stringify(names)} as const;`,
    '',
    '/** The name of one tool. */',
    'export type ToolName = (typeof TOOL_NAMES)[number];',
    '',
    'export type GeneratedToolSet = Record<ToolName, GeneratedTool>;',
    '',
    "/** The names of the MCP App approval card's tools (app only: never listed to a model). */",
    `export const APP_TOOL_NAMES = ${JSON.stringify(appNames)} as const;`,
    '',
    '/** The name of one app tool. */',
    'export type AppToolName = (typeof APP_TOOL_NAMES)[number];',
    '',
    'export type GeneratedAppToolSet = Record<AppToolName, GeneratedTool>;',
    '',
    ...table.declarations,
    ...sets,
    ...appSets,
  ]
    .join('\n')
    .replace(/\n+$/, '\n');
}

function main() {
  const { values } = parseArgs({ options: { check: { type: 'boolean', default: false }, out: { type: 'string' } } });
  const target = resolve(values.out ?? join(packageRoot, 'src', 'generated', 'tool-schemas.ts'));
  const fresh = renderToolSchemas(Object.fromEntries(VARIANTS.map((variant) => [variant, readBundle(variant)])));
  const current = existsSync(target) ? readFileSync(target, 'utf8') : null;
  const shown = relative(repoRoot, target);
  if (values.check) {
    if (current !== fresh) {
      console.error(
        `Generated tool schemas are stale; run \`npm run generate\` and commit:\n  ${shown}${firstDifference(current, fresh)}`,
      );
      process.exit(1);
    }
    console.log(`tool schemas are up to date (${shown})`);
    return;
  }
  if (current === fresh) return;
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, fresh);
  console.log(`wrote ${shown}`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    main();
  } catch (error) {
    console.error(`generate-tools: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
