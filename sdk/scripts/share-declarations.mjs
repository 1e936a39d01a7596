// After tsdown: the ESM and the CommonJS builds each bundle the same declarations into chunks of their own
// (client-exports-*.d.mts and .d.cts, index-*.d.mts and .d.cts), byte for byte alike but for the chunk names they
// import. An ESM declaration file may import a CommonJS one (the entry points already import dist/api-types.d.cts),
// so the .d.mts chunks are dropped and every .d.mts file imports the .d.cts chunk of the same source instead: one copy
// of those declarations ships instead of two (72 kB of the package). A pair that differs in anything else stops the
// build, since then the two builds did not declare the same thing.
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const dist = join(import.meta.dirname, '..', 'dist');
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

const renamed = new Map();
for (const [name, esm] of chunks.mts) {
  const cjs = chunks.cts.get(name);
  if (!cjs) throw new Error(`share-declarations: ${esm} has no CommonJS twin in dist/`);
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
console.log(`share-declarations: ${renamed.size} declaration chunks shared by the ESM and CommonJS builds`);
