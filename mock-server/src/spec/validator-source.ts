import { getOrCreate } from '../core/get-or-create.js';
import { loadBundledDocuments, type SpecDocuments } from './documents.js';
import type { OperationSpec } from './operations.js';
import { loadPrecompiledChecks } from './precompiled-validators.js';
import { SpecValidator, type RequestChecks } from './validator.js';

/** Where a mock's validation comes from, shared by every mock made from the same documents. */
export interface ValidatorSource {
  /** An operation's request checks: precompiled for the bundled documents, compiled with Ajv for others. */
  requestChecks(operation: OperationSpec): Promise<RequestChecks>;
  /** Ajv over the documents, for response checks (`validateResponses`). */
  compiler(): Promise<SpecValidator>;
}

/**
 * Validators are loaded once per set of documents and shared by every mock made from it: they are pure, and a test
 * suite that starts a fresh mock per test should not pay for loading or compiling them each time.
 */
const sources = new WeakMap<SpecDocuments, ValidatorSource>();
let bundledSource: ValidatorSource | undefined;

/** The source for these documents; `undefined` means the bundled ones. */
export function validatorSource(documents: SpecDocuments | undefined): ValidatorSource {
  if (documents === undefined) {
    bundledSource ??= createSource(loadBundledDocuments, true);
    return bundledSource;
  }
  return getOrCreate(sources, documents, () => createSource(() => Promise.resolve(documents), false));
}

function createSource(documents: () => Promise<SpecDocuments>, precompiled: boolean): ValidatorSource {
  let compiler: Promise<SpecValidator> | undefined;
  const loadCompiler = () => {
    compiler ??= documents().then((loaded) => SpecValidator.load(loaded));
    return compiler;
  };
  const checks = new Map<string, Promise<RequestChecks>>();
  return {
    requestChecks: (operation) => {
      const key = `${operation.variant} ${operation.method} ${operation.path}`;
      return getOrCreate(checks, key, async () => {
        try {
          const generated = precompiled ? await loadPrecompiledChecks(operation) : undefined;
          return generated ?? (await loadCompiler()).compileRequest(operation);
        } catch (error) {
          checks.delete(key);
          throw error;
        }
      });
    },
    compiler: loadCompiler,
  };
}
