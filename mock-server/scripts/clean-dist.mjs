// Empties dist/ before a build, so files of removed sources are never published.
import { rmSync } from 'node:fs';

rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });
