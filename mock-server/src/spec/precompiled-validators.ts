import type { Variant } from '../core/variant.js';
import { moduleExports } from '../core/cjs-interop.js';
import type { OperationSpec } from './operations.js';
import { bodyExportName, pathExportName, queryExportName } from './validation-schemas.js';
import type { RequestChecks, SchemaCheck } from './validator.js';

type CheckModule = Readonly<Record<string, SchemaCheck | undefined>>;

/**
 * The request checks generated from the bundled spec (scripts/generate-spec-modules.ts: Ajv standalone code, one
 * ES module per variant for parameters and one for bodies). Each is imported on the first request that needs it:
 * literal specifiers, so every bundler splits them into chunks of their own, and a page or a test suite that starts
 * a mock parses none of them until it sends a request.
 */
const modules: Record<Variant, Record<'parameters' | 'bodies', () => Promise<CheckModule>>> = {
  customer: {
    parameters: () => import('./generated/validators/customer.parameters.js').then(moduleExports<CheckModule>),
    bodies: () => import('./generated/validators/customer.bodies.js').then(moduleExports<CheckModule>),
  },
  user: {
    parameters: () => import('./generated/validators/user.parameters.js').then(moduleExports<CheckModule>),
    bodies: () => import('./generated/validators/user.bodies.js').then(moduleExports<CheckModule>),
  },
};

/** An operation's precompiled request checks, or undefined when the generated modules lack one of them. */
export async function loadPrecompiledChecks(operation: OperationSpec): Promise<RequestChecks | undefined> {
  const { variant, operationId } = operation;
  const [parameters, bodies] = await Promise.all([
    modules[variant].parameters(),
    operation.requestBody ? modules[variant].bodies() : undefined,
  ]);
  const path = parameters[pathExportName(operationId)];
  const query = parameters[queryExportName(operationId)];
  const body = bodies?.[bodyExportName(operationId)];
  if (!path || !query || (operation.requestBody && !body)) return undefined;
  return { path, query, body };
}
