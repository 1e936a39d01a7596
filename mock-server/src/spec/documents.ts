import type { OpenApiDocument } from '@cardrail/spec/documents';
import type { Variant } from '../core/variant.js';
import { moduleExports } from '../core/cjs-interop.js';

export type { OpenApiDocument };

export type SpecDocuments = Readonly<Record<Variant, OpenApiDocument>>;

/**
 * The bundled documents of both variants, from @cardrail/spec (inlined into the published package by its build),
 * imported on first use: the mock routes and validates requests from modules generated from them
 * (src/spec/generated), so only run-time compilation (response checks, `validateResponses`) needs the documents.
 * A separate chunk in every build, so starting a mock never parses them.
 */
export function loadBundledDocuments(): Promise<SpecDocuments> {
  // The published package's module (dist/spec/documents.cjs) holds them compressed and exports a promise of them
  // (mock-server/scripts/compressed-documents.mjs); the sources import the documents themselves.
  bundled ??= import('@cardrail/spec/documents').then(
    (module) => moduleExports<{ documents: SpecDocuments | Promise<SpecDocuments> }>(module).documents,
  );
  return bundled;
}

let bundled: Promise<SpecDocuments> | undefined;

/**
 * Follows a local `$ref` (`#/components/...`) once; other values are returned as they are. The document is JSON:
 * the casts walk it, and an unresolved reference is an error rather than a wrong type.
 */
export function deref<T>(document: OpenApiDocument, value: T | { $ref: string }): T {
  let current: unknown = value;
  for (let depth = 0; depth < 10; depth++) {
    if (current === null || typeof current !== 'object' || !('$ref' in current)) return current as T;
    const ref = (current as { $ref: string }).$ref;
    if (!ref.startsWith('#/')) throw new Error(`Only local references are supported: ${ref}`);
    current = ref
      .slice(2)
      .split('/')
      .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
      .reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], document);
    if (current === undefined) throw new Error(`Unresolved reference ${ref}`);
  }
  throw new Error('Reference chain too deep');
}
