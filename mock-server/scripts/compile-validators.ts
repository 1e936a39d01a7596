// Precompiles every operation's request validators from the bundled spec into dist/validators (Ajv standalone
// code), so the server neither loads Ajv nor walks the documents before answering: most of its start-up time.
// Runs (under tsx) from the same source modules the server uses, so the schemas and options are the ones the
// server would compile at run time.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { _ } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import standaloneCode from 'ajv/dist/standalone/index.js';
import addFormatsModule from 'ajv-formats';
import { VARIANTS } from '../src/core/variant.js';
import { loadSpecDocuments, type SpecDocuments } from '../src/spec/documents.js';
import { extractOperations } from '../src/spec/operations.js';
import { ajvOptions, documentId, operationSchemas, precompiledModulePaths } from '../src/spec/validation-schemas.js';

// Both packages are CommonJS; under ESM their function is the default export.
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const toStandalone = standaloneCode as unknown as (ajv: Ajv2020, refs: Record<string, string>) => string;

const dist = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');

function createAjv(coerce: boolean, documents: SpecDocuments): Ajv2020 {
  const ajv = new Ajv2020({
    ...ajvOptions(coerce),
    // The generated modules require the format checks the run-time instance gets from ajv-formats.
    code: { source: true, formats: _`require("ajv-formats/dist/formats").fullFormats` },
  });
  addFormats(ajv);
  for (const variant of VARIANTS) ajv.addSchema(documents[variant], documentId(variant));
  return ajv;
}

const documents = loadSpecDocuments();
const parameters = createAjv(true, documents);
const bodies = createAjv(false, documents);
rmSync(join(dist, 'validators'), { recursive: true, force: true });
let count = 0;
for (const variant of VARIANTS) {
  for (const operation of extractOperations(documents[variant], variant)) {
    const schemas = operationSchemas(operation);
    const paths = precompiledModulePaths(operation);
    const write = (path: string, ajv: Ajv2020, checks: Record<string, Record<string, unknown>>) => {
      const file = join(dist, path);
      mkdirSync(dirname(file), { recursive: true });
      // Standalone code exports schemas by id, so each check is registered under one first.
      const refs: Record<string, string> = {};
      for (const [name, schema] of Object.entries(checks)) {
        const id = `urn:cardrail:${variant}:${operation.operationId}:${name}`;
        ajv.addSchema({ ...schema, $id: id });
        refs[name] = id;
      }
      writeFileSync(file, toStandalone(ajv, refs));
      count++;
    };
    write(paths.parameters, parameters, { path: schemas.path, query: schemas.query });
    if (schemas.body) write(paths.body, bodies, { body: schemas.body });
  }
}
console.log(`mock-server: precompiled ${count} validator modules into dist/validators`);
