// The installed packages' types, as a user's TypeScript sees them under each module resolution it may use: every
// public entry resolves, and none of its exports is `any` (what an unresolved type inside a declaration becomes).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { consumerDir, publicEntries } from '../support/consumer.js';
import { run } from '../support/run.js';

const RESOLUTIONS = {
  node16: { module: 'node16', files: ['entries.mts', 'entries.cts'] },
  bundler: { module: 'esnext', files: ['entries.ts'] },
  node10: { module: 'commonjs', files: ['entries.ts'] },
} as const;

beforeAll(() => {
  const entries = publicEntries();
  const source = [
    '// Every public entry point, each export checked not to be `any`.',
    'type AnyExports<M> = { [K in keyof M]: 0 extends 1 & M[K] ? K : never }[keyof M];',
    'type NoAnyExports<M> = [AnyExports<M>] extends [never] ? true : AnyExports<M>;',
    ...entries.map((specifier, index) => `import * as entry${index} from '${specifier}';`),
    ...entries.map((_, index) => `export const checked${index}: NoAnyExports<typeof entry${index}> = true;`),
    `export const modules = [${entries.map((_, index) => `entry${index}`).join(', ')}];`,
    '',
  ].join('\n');
  for (const file of ['entries.ts', 'entries.mts', 'entries.cts']) writeFileSync(join(consumerDir, file), source);
});

it.concurrent.each(Object.entries(RESOLUTIONS))(
  'tsc --strict resolves every entry with moduleResolution %s',
  async (resolution, { module, files }) => {
    const result = await run(
      process.execPath,
      [
        join(consumerDir, 'node_modules/typescript/bin/tsc'),
        '--noEmit',
        '--strict',
        // As in most projects: third-party declarations (MSW, the AI SDK, zod) are not checked under every resolution.
        '--skipLibCheck',
        '--target',
        'es2022',
        '--module',
        module,
        '--moduleResolution',
        resolution,
        '--types',
        'node',
        ...files,
      ],
      { cwd: consumerDir },
    );
    expect(result.output).toBe('');
    expect(result.code).toBe(0);
  },
);
