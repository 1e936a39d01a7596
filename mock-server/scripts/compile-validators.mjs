// Precompiles every operation's request validators from the bundled spec into dist/validators (Ajv standalone
// code), so the server neither loads Ajv nor walks the documents before answering: most of its start-up time.
// Runs after tsc, from the compiled modules, so the schemas and options are the ones the server would compile.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { _ } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import standaloneCode from 'ajv/dist/standalone/index.js';
import addFormatsModule from 'ajv-formats';

const dist = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');
const { loadSpecDocuments } = await import(join(dist, 'spec/documents.js'));
const { extractOperations } = await import(join(dist, 'spec/operations.js'));
const { ajvOptions, documentId, operationSchemas, precompiledModulePaths } = await import(join(dist, 'spec/validation-schemas.js'));
const addFormats = addFormatsModule.default ?? addFormatsModule;
const toStandalone = standaloneCode.default ?? standaloneCode;

function createAjv(coerce, documents) {
  const ajv = new Ajv2020({
    ...ajvOptions(coerce),
    // The generated modules require the format checks the run-time instance gets from ajv-formats.
    code: { source: true, formats: _`require("ajv-formats/dist/formats").fullFormats` },
  });
  addFormats(ajv);
  for (const [variant, document] of Object.entries(documents)) ajv.addSchema(document, documentId(variant));
  return ajv;
}

const documents = loadSpecDocuments();
const parameters = createAjv(true, documents);
const bodies = createAjv(false, documents);
rmSync(join(dist, 'validators'), { recursive: true, force: true });
let count = 0;
for (const variant of Object.keys(documents)) {
  for (const operation of extractOperations(documents[variant], variant)) {
    const schemas = operationSchemas(operation);
    const paths = precompiledModulePaths(operation);
    const write = (path, ajv, checks) => {
      const file = join(dist, path);
      mkdirSync(dirname(file), { recursive: true });
      // Standalone code exports schemas by id, so each check is registered under one first.
      const refs = {};
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
