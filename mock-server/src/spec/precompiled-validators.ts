import { createRequire } from 'node:module';
import type { OperationSpec } from './operations.js';
import { precompiledModulePaths } from './validation-schemas.js';
import type { RequestChecks, SchemaCheck } from './validator.js';

/** Where the built chunks, and the validators beside them, are. */
const BUILT_CHUNKS = new URL('./', import.meta.url);

/**
 * The request checks the build precompiled from the bundled spec (scripts/compile-validators.ts, Ajv standalone
 * code in dist/validators, beside the built chunks), or undefined where there are none (running from src). Loading
 * one is a require of a small module, where compiling it would load Ajv and walk the whole document.
 */
export function loadPrecompiledChecks(operation: OperationSpec, base: URL = BUILT_CHUNKS): RequestChecks | undefined {
  const requireCjs = createRequire(base);
  const paths = precompiledModulePaths(operation);
  const parameters = tryRequire(requireCjs, `./${paths.parameters}`) as { path: SchemaCheck; query: SchemaCheck } | undefined;
  if (!parameters) return undefined;
  const body = operation.requestBody
    ? (tryRequire(requireCjs, `./${paths.body}`) as { body: SchemaCheck } | undefined)
    : undefined;
  if (operation.requestBody && !body) return undefined;
  return { path: parameters.path, query: parameters.query, body: body?.body };
}

// The modules are Ajv standalone code written by the build for exactly these exports; a missing one is undefined.
function tryRequire(requireCjs: NodeJS.Require, path: string): unknown {
  try {
    return requireCjs(path);
  } catch (error) {
    if ((error as { code?: string }).code === 'MODULE_NOT_FOUND' && String((error as Error).message).includes(path.slice(2))) {
      return undefined;
    }
    throw error;
  }
}
