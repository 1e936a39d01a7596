// Copies the dashboard's built page (the private workspace dashboard/, built before this package by `npm run build`
// at the repository root) into dist/dashboard: the package ships it and the Node server serves it at its root.
import { cpSync, existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const packageRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const from = join(packageRoot, '..', 'dashboard', 'dist');
const to = join(packageRoot, 'dist', 'dashboard');

if (!existsSync(join(from, 'index.html'))) {
  process.stderr.write(
    `The dashboard is not built (${from} has no index.html): run \`npm run build --workspace=@cardrail/dashboard\`, or \`npm run build\` at the repository root, which builds it before this package.\n`,
  );
  process.exit(1);
}
cpSync(from, to, { recursive: true });
process.stdout.write(`dashboard: copied ${readdirSync(to).join(', ')} into dist/dashboard\n`);
