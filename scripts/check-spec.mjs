#!/usr/bin/env node
// The spec gate beyond Redocly's lint:
//  1. every example (schema `example`/`examples`, media type and parameter examples) validates against its schema
//     with Ajv in JSON Schema draft 2020-12, the dialect of OpenAPI 3.1;
//  2. every entry of the shared files (common/, events/, webhooks/) is reachable from a root document, so no
//     component is left unused across files (Redocly's no-unused-components sees only a root's own components);
//  3. both variants' webhooks cover their event catalogs;
//  4. no schema is named after a JavaScript or DOM global (`Error`, `Event`, `Response`, ...): generated clients turn
//     each schema into an exported type of its name, which would shadow the global in every file that imports it;
//  5. each state-changing operation (freeze, close, suspend, reject, revoke, settle, reverse, withdrawal confirm and
//     fail) answers with an example of its own, showing the status after the change;
//  6. every field of every request body (nested ones too) has a description, on the property or on what it refers to;
// and prints the counts the foundation issue asks for.
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { parse } from 'yaml';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { bundle, repoRoot, variants } from './lib/bundle.mjs';

const specDir = join(repoRoot, 'spec');
const failures = [];
const fail = (message) => failures.push(message);
const escapePointer = (segment) => String(segment).replaceAll('~', '~0').replaceAll('/', '~1');

// ---------- 1. examples ----------
function newAjv() {
  // strict: false on purpose: OpenAPI schemas carry `example`, `discriminator` and `x-*` keywords that are not JSON
  // Schema vocabulary; everything JSON Schema defines is still enforced.
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  addFormats.default(ajv);
  return ajv;
}

function* examplesOf(node, pointer) {
  if (Array.isArray(node)) {
    for (let i = 0; i < node.length; i++) yield* examplesOf(node[i], `${pointer}/${i}`);
    return;
  }
  if (!node || typeof node !== 'object') return;
  const looksLikeSchema = ['type', 'properties', 'allOf', 'oneOf', 'anyOf', 'enum', 'const', '$ref', 'items'].some(
    (k) => k in node,
  );
  const isSchemaHolder = 'schema' in node && typeof node.schema === 'object'; // media type, parameter, header
  if (isSchemaHolder) {
    if ('example' in node) yield { schemaPointer: `${pointer}/schema`, value: node.example, at: `${pointer}/example` };
    for (const [name, ex] of Object.entries(node.examples ?? {})) {
      if (ex && typeof ex === 'object' && 'value' in ex)
        yield { schemaPointer: `${pointer}/schema`, value: ex.value, at: `${pointer}/examples/${escapePointer(name)}` };
    }
  } else if (looksLikeSchema) {
    if ('example' in node) yield { schemaPointer: pointer, value: node.example, at: `${pointer}/example` };
    if (Array.isArray(node.examples)) {
      for (let i = 0; i < node.examples.length; i++)
        yield { schemaPointer: pointer, value: node.examples[i], at: `${pointer}/examples/${i}` };
    }
  }
  for (const [key, child] of Object.entries(node)) {
    if (key === 'example' || key === 'examples') continue;
    yield* examplesOf(child, `${pointer}/${escapePointer(key)}`);
  }
}

/** The operations that change an object's status, and the status their answer shows. */
const STATE_AFTER = {
  freezeCard: 'frozen',
  closeCard: 'closed',
  suspendAgent: 'suspended',
  rejectIntent: 'rejected',
  revokePaymentToken: 'revoked',
  simulateSettlement: 'completed',
  simulateReversal: 'reversed',
  simulateWithdrawalConfirmation: 'confirmed',
  simulateWithdrawalFailure: 'failed',
};

const counts = {};
const schemaNames = {};
for (const variant of variants) {
  const document = bundle(variant);
  schemaNames[variant] = Object.keys(document.components?.schemas ?? {});
  const id = `https://cardrail.dev/spec/${variant}.json`;
  const ajv = newAjv();
  ajv.addSchema({ ...document, $id: id });
  let checked = 0;
  for (const { schemaPointer, value, at } of examplesOf(document, '')) {
    checked++;
    let validate;
    try {
      validate = ajv.compile({ $ref: `${id}#${schemaPointer}` });
    } catch (error) {
      fail(`${variant}: cannot compile the schema of ${at}: ${error.message}`);
      continue;
    }
    if (!validate(value))
      fail(`${variant}: example ${at} is invalid: ${ajv.errorsText(validate.errors, { dataVar: 'example' })}`);
  }
  const operations = Object.values(document.paths ?? {}).flatMap((item) =>
    Object.keys(item).filter((k) => ['get', 'post', 'put', 'patch', 'delete'].includes(k)),
  );
  counts[variant] = {
    operations: operations.length,
    extensions: Object.values(document.paths ?? {})
      .flatMap((item) => Object.values(item))
      .filter((op) => op?.['x-cardrail-extension']).length,
    schemas: Object.keys(document.components?.schemas ?? {}).length,
    webhooks: Object.keys(document.webhooks ?? {}).length,
    examples: checked,
  };

  // ---------- 5. the state after a change ----------
  // A state-changing operation answers the object as it is after the change. Without an example of its own, every
  // example-based tool (Prism's mock, Postman, the reference) shows the schema's, the object before it: a frozen card
  // answered "status": "active".
  for (const [operationId, status] of Object.entries(STATE_AFTER)) {
    const operation = Object.values(document.paths ?? {})
      .flatMap((item) => Object.values(item))
      .find((op) => op?.operationId === operationId);
    const content = operation?.responses?.['200']?.content?.['application/json'];
    const examples = [content?.example, ...Object.values(content?.examples ?? {}).map((ex) => ex?.value)].filter(Boolean);
    if (!operation) fail(`${variant}: no operation ${operationId} (scripts/check-spec.mjs lists it as state-changing)`);
    else if (examples.length === 0)
      fail(`${variant}: ${operationId}'s 200 has no example of its own (it would show the state before)`);
    else if (examples.some((example) => example.status !== status))
      fail(`${variant}: ${operationId}'s 200 example should show status ${status}, the state after the change`);
  }

  // ---------- 6. every request-body field described ----------
  // The reference, the SDK's hovers and the agent toolkit's tool schemas show a field's description and nothing else.
  for (const field of undescribedBodyFields(document)) fail(`${variant}: request body field ${field} has no description`);

  // ---------- 3. event coverage ----------
  const catalogTypes = parse(readFileSync(join(specDir, 'events', `${variant}.yaml`), 'utf8')).EventType?.enum ?? [];
  const webhookTypes = Object.keys(document.webhooks ?? {});
  for (const type of catalogTypes)
    if (!webhookTypes.includes(type)) fail(`${variant}: event type ${type} has no entry under webhooks:`);
  for (const type of webhookTypes)
    if (!catalogTypes.includes(type)) fail(`${variant}: webhooks: entry ${type} is not in EventType`);
}

// ---------- 4. schema names that shadow globals ----------
// The globals of this runtime (Error, Event, Request, Response, Headers, Blob, File, ...) and of browsers.
const DOM_GLOBALS = ['Document', 'Element', 'Node', 'Window', 'Location', 'History', 'Storage', 'Navigator', 'Screen'];
DOM_GLOBALS.push('Notification', 'Selection', 'Range', 'Text', 'Comment', 'Attr', 'Image', 'Audio', 'Option');
const globalNames = new Set([...Object.getOwnPropertyNames(globalThis), ...DOM_GLOBALS]);
for (const variant of variants) {
  for (const name of schemaNames[variant]) {
    if (globalNames.has(name)) fail(`${variant}: schema ${name} is named after a global; generated clients would shadow it`);
  }
}

// ---------- 2. unused shared components ----------
const fileCache = new Map();
const load = (file) => {
  if (!fileCache.has(file)) fileCache.set(file, parse(readFileSync(file, 'utf8')));
  return fileCache.get(file);
};
const at = (doc, pointer) =>
  pointer
    .split('/')
    .filter(Boolean)
    .map(decode)
    .reduce((node, key) => node?.[key], doc);
const reached = new Set(); // "file#pointer"
function visit(file, pointer) {
  const key = `${file}#${pointer}`;
  if (reached.has(key)) return;
  reached.add(key);
  const walk = (node) => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (!node || typeof node !== 'object') return;
    if (typeof node.$ref === 'string') {
      const [target, fragment = ''] = node.$ref.split('#');
      const targetFile = target ? resolve(dirname(file), target) : file;
      if (at(load(targetFile), fragment) === undefined) fail(`${relative(repoRoot, file)}: $ref ${node.$ref} does not resolve`);
      else visit(targetFile, fragment);
    }
    Object.values(node).forEach(walk);
  };
  walk(at(load(file), pointer));
}
for (const variant of variants) visit(join(specDir, `${variant}.yaml`), '');
const sharedFiles = ['common', 'events', 'webhooks'].flatMap((dir) =>
  readdirSync(join(specDir, dir))
    .filter((f) => f.endsWith('.yaml'))
    .map((f) => join(specDir, dir, f)),
);
let sharedEntries = 0;
for (const file of sharedFiles) {
  for (const name of Object.keys(load(file) ?? {})) {
    sharedEntries++;
    const pointer = `/${escapePointer(name)}`;
    const used = [...reached].some((k) => k === `${file}#${pointer}` || k.startsWith(`${file}#${pointer}/`) || k === `${file}#`);
    if (!used) fail(`${relative(repoRoot, file)}: ${name} is never referenced from customer.yaml or user.yaml`);
  }
}

for (const variant of variants) {
  const c = counts[variant];
  console.log(
    `${variant}: ${c.operations} operations (${c.extensions} extensions), ${c.schemas} schemas, ${c.webhooks} event types in webhooks:, ${c.examples} examples validated`,
  );
}
console.log(`shared files: ${sharedEntries} entries, all referenced`);
if (failures.length > 0) {
  console.error(`\nspec check failed (${failures.length}):\n- ${failures.join('\n- ')}`);
  process.exit(1);
}
console.log('spec check passed');

/** `Schema.field` (nested: `Schema.field.sub`) of every request-body property without a description, once each. */
function undescribedBodyFields(document) {
  const resolve = (node) => {
    let current = node;
    while (current?.$ref)
      current = current.$ref
        .slice(2)
        .split('/')
        .map(decode)
        .reduce((at, key) => at?.[key], document);
    return current;
  };
  const missing = new Set();
  const seen = new Set();
  const walk = (schema, owner) => {
    const resolved = resolve(schema);
    const name = schema?.$ref ? schema.$ref.split('/').pop() : owner;
    if (!resolved || typeof resolved !== 'object' || seen.has(resolved)) return;
    seen.add(resolved);
    for (const key of ['allOf', 'oneOf', 'anyOf']) for (const branch of resolved[key] ?? []) walk(branch, name);
    if (resolved.items) walk(resolved.items, name);
    for (const [field, property] of Object.entries(resolved.properties ?? {})) {
      if (!property?.description && !resolve(property)?.description) missing.add(`${name}.${field}`);
      walk(property, `${name}.${field}`);
    }
  };
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const [method, operation] of Object.entries(item ?? {})) {
      const schema = operation?.requestBody?.content?.['application/json']?.schema;
      if (schema) walk(schema, `${method.toUpperCase()} ${path}`);
    }
  }
  return [...missing];
}

/** A JSON pointer segment as the key it names (a function, so the checks above the line that would define it can use it). */
function decode(segment) {
  return segment.replaceAll('~1', '/').replaceAll('~0', '~');
}
