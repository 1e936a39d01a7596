// After tsdown, for a package with ESM and CommonJS builds (`node ../scripts/share-declarations.mjs` in its folder):
// 1. The two builds each bundle the same declarations into chunks of their own (client-exports-*.d.mts and .d.cts,
//    index-*.d.mts and .d.cts), byte for byte alike but for the chunk names they import. An ESM declaration file may
//    import a CommonJS one, so the .d.mts chunks are dropped and every .d.mts file imports the .d.cts chunk of the same
//    source instead: one copy of those declarations ships instead of two. A pair that differs in anything else stops
//    the build, since then the two builds did not declare the same thing.
// 2. An entry point's .d.mts that then declares what its .d.cts does (but for importing .mjs files where that one
//    imports .cjs ones) becomes `export * from "./<entry>.cjs"`: the ESM types are the CommonJS ones, with their JSDoc.
//    Neither is done for a file importing a package whose ESM and CommonJS types differ (SAME_TYPES_BOTH_WAYS).
// 3. Every declaration file is indented with tabs instead of two spaces (as the JavaScript already is): the same text
//    and JSDoc in an editor, one byte per level instead of two (7% of the generated API types).
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const dist = join(process.cwd(), 'dist');
const files = readdirSync(dist);
/** A declaration chunk (`client-exports-CIkWtPau.d.mts`): its source name and its hash. */
const CHUNK = /^(.+)-([A-Za-z0-9_-]{8})\.d\.(mts|cts)$/;

const chunks = { mts: new Map(), cts: new Map() };
for (const file of files) {
  const match = CHUNK.exec(file);
  if (match) chunks[match[3]].set(match[1], file);
}

/** Chunk file names as import specifiers (`./client-exports-CIkWtPau.mjs`), normalized away for the comparison. */
const specifiers = /"\.\/([^"]+?)-[A-Za-z0-9_-]{8}\.(mjs|cjs)"/g;
const normalized = (text) => text.replace(specifiers, '"./$1"');

/**
 * The packages whose types an ESM declaration may take through a CommonJS one. An import of another package from a
 * .d.cts file resolves that package's CommonJS types, which for a dual package like msw are other files than its ESM
 * types: its classes (msw's `RequestHandler`, with protected members) would then be unrelated to the ones the user's
 * ESM code imports, and a file importing such a package keeps its .d.mts. These two declare the same types both ways:
 * @cardrail/sdk (this script gives its ESM and CommonJS declarations the same files) and openapi-fetch (types and
 * functions only, no class: its index.d.mts and index.d.cts declare the same structural types).
 */
const SAME_TYPES_BOTH_WAYS = new Set(['@cardrail/sdk', 'openapi-fetch']);
const importsOnlySameTypes = (text) =>
  [...text.matchAll(/\bfrom "([^".][^"]*)"/g)].every(([, specifier]) =>
    SAME_TYPES_BOTH_WAYS.has(
      specifier
        .split('/')
        .slice(0, specifier.startsWith('@') ? 2 : 1)
        .join('/'),
    ),
  );

const renamed = new Map();
for (const [name, esm] of chunks.mts) {
  const cjs = chunks.cts.get(name);
  if (!cjs) throw new Error(`share-declarations: ${esm} has no CommonJS twin in dist/`);
  if (!importsOnlySameTypes(readFileSync(join(dist, cjs), 'utf8'))) continue;
  if (normalized(readFileSync(join(dist, esm), 'utf8')) !== normalized(readFileSync(join(dist, cjs), 'utf8'))) {
    throw new Error(`share-declarations: ${esm} and ${cjs} declare different things; both are kept as built`);
  }
  renamed.set(esm.replace(/\.d\.mts$/, '.mjs'), cjs.replace(/\.d\.cts$/, '.cjs'));
}

for (const file of files.filter((f) => f.endsWith('.d.mts'))) {
  if (renamed.has(file.replace(/\.d\.mts$/, '.mjs'))) continue;
  const path = join(dist, file);
  const text = readFileSync(path, 'utf8');
  const shared = text.replace(/"\.\/([^"]+\.mjs)"/g, (whole, target) =>
    renamed.has(target) ? `"./${renamed.get(target)}"` : whole,
  );
  if (shared !== text) writeFileSync(path, shared);
}
for (const esm of renamed.keys()) rmSync(join(dist, esm.replace(/\.mjs$/, '.d.mts')));

let entries = 0;
for (const file of readdirSync(dist).filter((f) => f.endsWith('.d.mts') && !CHUNK.test(f))) {
  const cjs = join(dist, file.replace(/\.d\.mts$/, '.d.cts'));
  if (!existsSync(cjs)) continue; // an ESM-only entry point (the mock's CLI)
  const esmText = readFileSync(join(dist, file), 'utf8');
  const asCommonJs = esmText.replace(/"(\.\/[^"]+)\.mjs"/g, '"$1.cjs"');
  // `export *` passes on every named export, types included, but no default export.
  const sharable = importsOnlySameTypes(esmText) && !/\bexport default\b|\bas default\b/.test(esmText);
  if (!sharable || asCommonJs !== readFileSync(cjs, 'utf8')) continue;
  writeFileSync(join(dist, file), `export * from "./${file.replace(/\.d\.mts$/, '.cjs')}";\n`);
  entries++;
}

/** Two-space indentation as tabs; only leading whitespace changes, so no string or comment text does. */
const withTabs = (text) => text.replace(/^(?: {2})+/gm, (indent) => '\t'.repeat(indent.length / 2));
let saved = 0;
for (const file of readdirSync(dist, { recursive: true }).filter((f) => /\.d\.[cm]ts$/.test(f))) {
  const path = join(dist, file);
  const text = readFileSync(path, 'utf8');
  const tabbed = withTabs(text);
  saved += text.length - tabbed.length;
  if (tabbed !== text) writeFileSync(path, tabbed);
}
console.log(
  `share-declarations: ${renamed.size} declaration chunks and ${entries} entry points' declarations shared by the ESM and CommonJS builds; tabs saved ${saved} bytes`,
);
