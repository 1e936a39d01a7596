import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';

/**
 * The spec's two documents in the published package (dist/spec/documents.cjs): their JSON, gzip-compressed and
 * base64-encoded into a string (145 kB instead of 1 MB of object literals), decompressed when a mock first needs them
 * (response checks, `validateResponses`) with web standards every runtime the mock runs on has: `atob`,
 * `DecompressionStream('gzip')` and `Response` (Node.js 18+, Bun, Deno, workerd, browsers). The module exports a
 * promise of the documents, which `loadBundledDocuments` (src/spec/documents.ts) flattens as it does the documents.
 * The sources (tests, `npm run mock`) import @cardrail/spec/documents itself.
 *
 * @param {string} documentsModule the path of @cardrail/spec/documents
 */
export function compressedDocuments(documentsModule) {
  return {
    name: 'cardrail:compressed-documents',
    load: {
      order: /** @type {const} */ ('pre'),
      /** @param {string} id */
      handler: async (id) => {
        if (id !== documentsModule) return null;
        const { documents } = await import(pathToFileURL(documentsModule).href);
        const gzipped = gzipSync(JSON.stringify(documents), { level: 9 }).toString('base64');
        return [
          '// The spec documents of both variants as gzip-compressed JSON in base64 (the build writes this module).',
          `const compressed = ${JSON.stringify(gzipped)};`,
          'async function decompress() {',
          '\tconst bytes = Uint8Array.from(atob(compressed), (char) => char.charCodeAt(0));',
          "\tconst json = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));",
          '\tconst { customer, user } = await new Response(json).json();',
          '\treturn Object.freeze({ customer, user });',
          '}',
          'export const documents = decompress();',
          '',
        ].join('\n');
      },
    },
  };
}
