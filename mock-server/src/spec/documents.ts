import { readFileSync } from 'node:fs';
import type { Variant } from '../core/variant.js';

/** The parts of an OpenAPI 3.1 document the mock reads. */
export interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, unknown>>;
  webhooks?: Record<string, unknown>;
  components?: Record<string, Record<string, unknown>>;
  [key: string]: unknown;
}

export type SpecDocuments = Record<Variant, OpenApiDocument>;

/**
 * The bundled documents of both variants. They are copies of spec/dist made by `npm run generate` into
 * src/generated (and by the build into dist/generated), so the package needs nothing outside itself.
 */
export function loadSpecDocuments(): SpecDocuments {
  // Read once per process: the documents are immutable, and the same object lets servers share compiled validators.
  bundled ??= {
    customer: readDocument('openapi-customer.json'),
    user: readDocument('openapi-user.json'),
  };
  return bundled;
}

let bundled: SpecDocuments | undefined;

/** Whether these are the documents the package ships (the ones its precompiled validators were built from). */
export function isBundledDocuments(documents: SpecDocuments): boolean {
  return documents === bundled;
}

function readDocument(file: string): OpenApiDocument {
  const url = new URL(`../generated/${file}`, import.meta.url);
  return JSON.parse(readFileSync(url, 'utf8')) as OpenApiDocument;
}

/** Follows a local `$ref` (`#/components/...`) once; other values are returned as they are. */
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
