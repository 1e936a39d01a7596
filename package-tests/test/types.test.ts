// The installed packages' types, as a user's TypeScript sees them under each module resolution it may use, with
// TypeScript 7 (npm's latest, the consumer's `typescript`) and 5.9 (`typescript-5.9`): every public entry resolves,
// and none of its exports is `any` (what an unresolved type inside a declaration becomes). node10 (`moduleResolution:
// node`) only under 5.9: TypeScript 7 refuses it (TS5108).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { consumerDir, publicEntries } from '../support/consumer.js';
import { run } from '../support/run.js';
import { WAITS } from '../../scripts/lib/test-waits.mjs';

const RESOLUTIONS = {
  node16: { module: 'node16', files: ['entries.mts', 'entries.cts'] },
  nodenext: { module: 'nodenext', files: ['entries.mts', 'entries.cts'] },
  bundler: { module: 'esnext', files: ['entries.ts'] },
  node10: { module: 'commonjs', files: ['entries.ts'] },
} as const;
const COMPILERS = { '7': 'typescript', '5.9': 'typescript-5.9' } as const;
// nodenext is compiled once per compiler, with skipLibCheck false, by the last test below: a second run with
// --skipLibCheck would check nothing that one does not.
const CASES = (Object.keys(COMPILERS) as (keyof typeof COMPILERS)[]).flatMap((version) =>
  (Object.keys(RESOLUTIONS) as (keyof typeof RESOLUTIONS)[])
    .filter((resolution) => resolution !== 'nodenext' && !(version === '7' && resolution === 'node10'))
    .map((resolution) => [version, resolution] as const),
);

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

it('covers node16 and bundler under both compilers and node10 under 5.9 here, nodenext below', () => {
  expect(CASES.map((pair) => pair.join(' '))).toEqual(['7 node16', '7 bundler', '5.9 node16', '5.9 bundler', '5.9 node10']);
});

it.concurrent.each(CASES)(
  'TypeScript %s: tsc --strict resolves every entry with moduleResolution %s',
  async (version, resolution) => {
    const { module, files } = RESOLUTIONS[resolution];
    const compiler = join(consumerDir, 'node_modules', COMPILERS[version], 'bin', 'tsc');
    const installed = JSON.parse(readFileSync(join(consumerDir, 'node_modules', COMPILERS[version], 'package.json'), 'utf8'));
    expect(installed.version.startsWith(`${version}.`)).toBe(true);
    const result = await run(
      process.execPath,
      [
        compiler,
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
      // TypeScript 5.9 reads the declarations of every entry (the OpenAI Agents SDK's and openai's among them) in
      // JavaScript, seven compilers at once: on a busy two-core machine that takes longer than run()'s default minute.
      { cwd: consumerDir, timeoutMs: 110_000 },
    );
    expect(result.output).toBe('');
    expect(result.code).toBe(0);
  },
);

// With `skipLibCheck: false` a user's compiler checks the declaration files themselves: a declaration that imports a
// file shipped without types (TS7016) or is otherwise wrong fails their build. Third-party declarations (MSW, the AI
// SDK, openai) are not ours to fix, so only errors reported in a `@cardrail/*` file or in the entries file (an entry
// that does not resolve, an export that is `any`) count. nodenext compiles an ESM and a CommonJS file, so it reads both
// declaration kinds (.d.mts, which bundler reads too, and .d.cts). One compiler at a time: checking every library's
// declarations takes several times as long as the checks above.
it.each(Object.keys(COMPILERS) as (keyof typeof COMPILERS)[])(
  'TypeScript %s, skipLibCheck false: every entry resolves with moduleResolution nodenext, no error in a @cardrail/* declaration (ESM and CommonJS)',
  async (version) => {
    const compiler = join(consumerDir, 'node_modules', COMPILERS[version], 'bin', 'tsc');
    const result = await run(
      process.execPath,
      [compiler, '--noEmit', '--strict', '--skipLibCheck', 'false', '--target', 'es2022', '--module', 'nodenext'].concat([
        '--moduleResolution',
        'nodenext',
        '--types',
        'node',
        '--pretty',
        'false',
        ...RESOLUTIONS.nodenext.files,
      ]),
      // TypeScript 5.9 checking the AI SDK's and openai's declarations in JavaScript: 297 s under a load average
      // near 15 on two cores (TypeScript 7: 72 s), a whole test's budget; this check alone gets two.
      { cwd: consumerDir, timeoutMs: 2 * WAITS.test },
    );
    expect(result.output).not.toContain('[killed after');
    const ours = result.output
      .split('\n')
      .filter((line) => /node_modules[\\/]@cardrail[\\/]|^entries\.[cm]ts\(|^error TS/.test(line));
    expect(ours).toEqual([]);
  },
  2 * WAITS.test + 30_000,
);
