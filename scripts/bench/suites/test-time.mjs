// How long `npm test` takes on a fresh clone, before and after it became a graph of tasks run side by side
// (scripts/test-all.mjs). The committed HEAD is cloned into a temporary folder and installed with `npm ci`; there:
//   1. the steps of `npm test` as it was when the goal was set (generation freshness, spec lint, build, typecheck,
//      then the SDK's, the mock's and the contract tests' suites), one after another, each suite with a fresh process
//      per test file and vitest's own type-check, as that command ran them: the baseline, measured in the same run;
//   2. the same steps through today's runner (`--only`, with what they need);
//   3. today's whole `npm test`: every check and every suite, Chromium, Bun, Deno, workerd and Node 22/24 included;
// and `npm ci` plus step 3 is what CI runs. Full mode only (about 14 minutes); quick mode skips it and says so.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnChild } from '../lib/children.mjs';
import { formatRatio } from '../lib/format.mjs';
import { repoRoot } from '../lib/paths.mjs';

export const title = 'Test time: npm test on a fresh clone';

/** npm test when the goal of halving it was set, measured on this kind of machine: 5 min 39 s. */
const GOAL_SET_AT_SECONDS = 339;
/** The time limit CI allows itself: npm ci plus npm test. */
const CI_LIMIT_SECONDS = 600;

const ORIGINAL_STEPS = [
  'npm run generate:check',
  'npm run lint --workspace=@cardrail/spec',
  'npm run build -w @cardrail/sdk -w @cardrail/dashboard -w @cardrail/mock-server',
  'npm run typecheck -w @cardrail/sdk -w @cardrail/mock-server -w @cardrail/contract-tests',
  'npm test -w @cardrail/sdk -w @cardrail/mock-server -w @cardrail/contract-tests',
];
const ORIGINAL_TASKS = [
  'generate',
  'lint:spec',
  'build:*',
  'typecheck:sdk',
  'typecheck:mock-server',
  'typecheck:contract-tests',
  'test:sdk',
  'test:mock-server',
  'test:contract-tests',
];

const minutes = (seconds) => `${Math.floor(seconds / 60)} min ${Math.round(seconds % 60)} s`;

/** Runs a shell command in the clone; resolves with its wall time in seconds and its output's tail, or throws. */
async function timed(clone, command, log) {
  log(`test-time: ${command}`);
  const started = performance.now();
  const child = spawnChild('sh', ['-c', command], { cwd: clone, env: { ...process.env, NO_COLOR: '1', CI: '1' } });
  const { code, signal } = await child.exited;
  const seconds = (performance.now() - started) / 1000;
  if (code !== 0)
    throw new Error(`\`${command}\` failed (${signal ?? `exit ${code}`}) after ${seconds.toFixed(0)} s:\n${child.output()}`);
  log(`test-time:   ${seconds.toFixed(1)} s`);
  return { seconds, output: child.output() };
}

/** The runner's per-phase lines ("static 0.0 s to 17.3 s, ..."), for the notes. */
const phases = (output) =>
  output
    .split('\n')
    .filter((line) => /^(static|build|typecheck|test)\s+[\d.]+ s to/.test(line))
    .map((line) => line.replace(/\s+/g, ' ').trim());

export async function run({ quick, log }) {
  if (quick) {
    return {
      rows: [],
      notes: [
        'Skipped in quick mode: it clones and tests the repository three ways (about 14 minutes); run `npm run bench -- --only test-time`.',
      ],
    };
  }
  const clone = mkdtempSync(join(tmpdir(), 'cardrail-test-time-'));
  try {
    await timed(tmpdir(), `git clone -q ${JSON.stringify(repoRoot)} ${JSON.stringify(clone)}`, log);
    const install = await timed(clone, 'npm ci --no-audit --no-fund --loglevel=error', log);
    let before = 0;
    for (const step of ORIGINAL_STEPS) before += (await timed(clone, step, log)).seconds;
    const subset = await timed(clone, `node scripts/test-all.mjs --only '${ORIGINAL_TASKS.join(',')}'`, log);
    const whole = await timed(clone, 'node scripts/test-all.mjs', log);
    const ci = install.seconds + whole.seconds;
    return {
      rows: [
        {
          measure:
            "npm test's steps of the day the goal was set (generate, spec lint, build, typecheck, SDK, mock and contract suites)",
          ours: minutes(subset.seconds),
          baseline: `one after another, as that npm test ran them: ${minutes(before)} (5 min 39 s when the goal was set)`,
          ratio: formatRatio(before / subset.seconds),
          target: 'half the time (>= 2x), under 2 min 50 s',
          met: before / subset.seconds >= 2 && subset.seconds < GOAL_SET_AT_SECONDS / 2,
        },
        {
          measure: 'Whole npm test: every check and suite, Chromium, Bun, Deno, workerd, Node 22 and 24 (informational)',
          ours: minutes(whole.seconds),
          baseline: '',
          ratio: '',
          target: '',
          met: null,
        },
        {
          measure: 'CI on a fresh clone: npm ci, then the whole npm test',
          ours: `${minutes(ci)} (npm ci ${minutes(install.seconds)})`,
          baseline: `CI's limit to keep: ${minutes(CI_LIMIT_SECONDS)}`,
          ratio: formatRatio(CI_LIMIT_SECONDS / ci),
          target: `< ${minutes(CI_LIMIT_SECONDS)}`,
          met: ci < CI_LIMIT_SECONDS,
        },
      ],
      notes: [
        `A clone of the committed HEAD in a temporary folder, \`npm ci\`, then three runs in it: the baseline steps (${ORIGINAL_STEPS.map((step) => `\`${step}\``).join(', ')}), the same through \`node scripts/test-all.mjs --only ${ORIGINAL_TASKS.join(',')}\`, and the whole \`npm test\`. Every run builds again: none reuses another's dist/ or tarballs.`,
        `Phases of the same steps through the runner: ${phases(subset.output).join('; ')}.`,
        `Phases of the whole npm test: ${phases(whole.output).join('; ')}.`,
        'The baseline runs each suite as the old command did: a fresh process per test file and vitest type-checking the *.test-d.ts files; the runner shares one worker per suite under a leak guard and leaves the type tests to the typecheck step, which compiles the same files with the same options.',
      ],
    };
  } finally {
    rmSync(clone, { recursive: true, force: true });
  }
}
