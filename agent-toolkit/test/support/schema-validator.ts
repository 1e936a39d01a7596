import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

/**
 * Ajv for draft 2020-12 in strict mode: an unknown keyword (an OpenAPI `example`, an `x-` extension) or a
 * malformed schema fails to compile, so compiling proves a tool schema is plain JSON Schema.
 */
const ajv = new Ajv2020({ strict: true, allErrors: true });
addFormats.default(ajv);

export function compileToolSchema(schema: object) {
  return ajv.compile(schema);
}
