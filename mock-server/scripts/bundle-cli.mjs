// Bundles the CLI into one module: loading ~100 compiled modules and Hono's files one by one was most of the
// time from `cardrail-mock` starting to its first answer. Ajv and ajv-formats stay outside: the server requires
// them only when it compiles validation at run time (the bundled spec's is precompiled, see compile-validators).
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const dist = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');
const outfile = join(dist, 'bin', 'cardrail-mock.js');
await build({
  entryPoints: [outfile],
  outfile,
  allowOverwrite: true,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external: ['ajv', 'ajv/*', 'ajv-formats', 'ajv-formats/*'],
  // Paths stay relative to dist/bin: the spec copies (dist/generated) and validators (dist/validators) resolve alike.
  legalComments: 'none',
  sourcemap: false,
  logLevel: 'warning',
});
// tsc's source map described the unbundled file.
rmSync(`${outfile}.map`, { force: true });
console.log('mock-server: bundled the CLI into dist/bin/cardrail-mock.js');
