// Where the benchmarks find the built packages, the spec and the tools, from the repository root.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
export const benchDir = join(repoRoot, 'scripts', 'bench');
export const suitesDir = join(benchDir, 'suites');
export const resultsFile = join(benchDir, 'results.md');

export const mockCli = join(repoRoot, 'mock-server', 'dist', 'cli.mjs');
export const mockEntry = join(repoRoot, 'mock-server', 'dist', 'index.mjs');
export const mockMswAdapter = join(repoRoot, 'mock-server', 'dist', 'msw.mjs');
export const mockNodeAdapter = join(repoRoot, 'mock-server', 'dist', 'node.mjs');
export const sdkEntry = join(repoRoot, 'sdk', 'dist', 'index.mjs');

export const customerSpec = join(repoRoot, 'spec', 'dist', 'customer.json');
export const prismBin = join(repoRoot, 'node_modules', '.bin', 'prism');
