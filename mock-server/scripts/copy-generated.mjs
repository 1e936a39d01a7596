// tsc emits only code; the spec documents the mock reads at start travel next to it in dist/generated.
import { cpSync, existsSync, mkdirSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const from = join(root, 'src', 'generated');
const to = join(root, 'dist', 'generated');
if (!existsSync(from)) {
  console.error('mock-server: src/generated is missing; run `npm run generate` at the repository root first');
  process.exit(1);
}
mkdirSync(to, { recursive: true });
for (const file of readdirSync(from).filter((name) => name.endsWith('.json'))) cpSync(join(from, file), join(to, file));
