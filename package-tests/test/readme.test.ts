// Every code block of the READMEs and of docs/, run as a user would paste it into a project that installed the
// packages: the TypeScript ones compile under --strict and run against the mock (preloaded in-process through MSW, at
// the addresses the examples use), vitest and jest examples run in those runners, fixtures files load through the CLI,
// shell blocks that start `cardrail-mock` start it (on a free loopback port) and the script after one runs against it.
// A block that cannot run on its own starts with `// Excerpt: ...`, visibly, and is not run. A block that shows msw
// 2's form starts with `// msw 2 ...` and compiles (TypeScript 5.9) and runs (vitest 4, Node 20) in the project of a
// user with msw 2; every other block, in the project with what npm installs today (TypeScript 7, msw 3).
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { consumerDir, consumerMsw2Dir } from '../support/consumer.js';
import { nodeBinary } from '../support/node-majors.js';
import {
  type CodeBlock,
  codeBlocks,
  kindOf,
  type RunnableBlock,
  runnableBlocks,
  serverCommands,
} from '../support/readme-blocks.js';
import { DOCS, MARKDOWN, READMES, staleFileBlocks } from '../support/readme-files.ts';
import { run, type RunResult } from '../support/run.js';
import { serve } from '../support/serving.js';
import { WAITS } from '../../scripts/lib/test-waits.mjs';

const repoRoot = new URL('../../', import.meta.url);
const blocks: CodeBlock[] = MARKDOWN.flatMap((readme) => codeBlocks(readme, readFileSync(new URL(readme, repoRoot), 'utf8')));
const runnable = runnableBlocks(blocks);
const ENV = { CARDRAIL_API_KEY: 'sk_test_readmeexamples', CARDRAIL_WEBHOOK_SECRET: 'whsec_readmeexamples' };

/** The file a runnable block is written to in the user's project (compiled to readme-js/ when a script). */
function fileOf(block: RunnableBlock): string {
  const base = `${
    block.readme
      .replace(/\/?README\.md$/, '')
      .replace(/\.md$/, '')
      .replace(/\//g, '-') || 'root'
  }-L${block.line}`;
  return { script: `${base}.ts`, vitest: `${base}.test.ts`, jest: `${base}.test.cjs` }[block.kind];
}
const label = (block: { readme: string; line: number }) => `${block.readme}:${block.line}`;

/** Writes the blocks into `dir`/readme and compiles them there with the project's own TypeScript. */
async function compile(dir: string, blocks: RunnableBlock[], node: string): Promise<RunResult> {
  mkdirSync(join(dir, 'readme'), { recursive: true });
  for (const block of blocks) writeFileSync(join(dir, 'readme', fileOf(block)), block.code);
  writeFileSync(
    join(dir, 'readme', 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        skipLibCheck: true,
        target: 'es2022',
        module: 'node16',
        moduleResolution: 'node16',
        types: ['node'],
        rootDir: '.',
        outDir: '../readme-js',
      },
      include: ['*.ts'],
    }),
  );
  return run(node, [join(dir, 'node_modules/typescript/bin/tsc'), '-p', 'readme'], { cwd: dir });
}

const latest = runnable.filter((block) => block.msw === 3);
const withMsw2 = runnable.filter((block) => block.msw === 2);
let compiled: RunResult;
let compiledMsw2: RunResult;
beforeAll(async () => {
  [compiled, compiledMsw2] = await Promise.all([
    compile(consumerDir, latest, process.execPath),
    compile(consumerMsw2Dir, withMsw2, nodeBinary(20)),
  ]);
});

it('finds the examples: every README has runnable TypeScript, and each block is run, an excerpt, or not code', () => {
  for (const readme of READMES) expect(runnable.some((block) => block.readme === readme)).toBe(true);
  expect(runnable.filter((block) => DOCS.includes(block.readme)).length).toBeGreaterThan(5);
  const kinds = blocks.map((block) => `${label(block)} ${block.lang || 'text'} ${kindOf(block)}`);
  // TypeScript or JavaScript is either run, a copy of a tested file, or marked as an excerpt; nothing falls through as
  // "other", and code in a language no rule runs (tsx, mjs...) fails here rather than going unrun.
  expect(kinds.filter((kind) => /\s(ts|typescript|js|javascript) other$|\sunrunnable$/.test(kind))).toEqual([]);
});

it('every block that shows a repository file is that file, word for word (those files run in receivers.test.ts)', () => {
  expect(blocks.some((block) => block.file !== undefined)).toBe(true);
  expect(
    staleFileBlocks().map(({ readme, line, file }) => `${readme}:${line} differs from ${file}`),
    'copy the files into the READMEs: node package-tests/support/readme-files.ts --write',
  ).toEqual([]);
});

it('every TypeScript example compiles under --strict against the installed packages (TypeScript 7)', () => {
  expect(compiled.output).toBe('');
  expect(compiled.code).toBe(0);
});

it('the msw 2 examples compile under --strict with msw 2 and TypeScript 5.9', () => {
  expect(withMsw2.length).toBeGreaterThan(0);
  expect(compiledMsw2.output).toBe('');
  expect(compiledMsw2.code).toBe(0);
});

/** A script that reads the mock's address from CARDRAIL_MOCK_URL runs against the server its file started before it. */
const needsServer = (block: RunnableBlock) => block.code.includes('process.env.CARDRAIL_MOCK_URL');
const scripts = latest.filter((block) => block.kind === 'script');
/** The root README's webhook receiver (the script that starts a `node:http` server), checked for what it prints below. */
const rootExample = scripts.find((block) => block.readme === 'README.md' && block.code.includes("from 'node:http'"));
const runScript = (block: RunnableBlock, env: NodeJS.ProcessEnv = {}) =>
  run(process.execPath, ['--import', './mock-preload.mjs', join('readme-js', fileOf(block).replace(/\.ts$/, '.js'))], {
    cwd: consumerDir,
    env: { ...ENV, ...env },
    timeoutMs: WAITS.start,
  });

it('the examples run where a request off loopback fails: the SDK default (production) is refused, the local mock answers', async () => {
  mkdirSync(join(consumerDir, 'readme-js'), { recursive: true });
  const probe = join('readme-js', 'off-loopback-probe.mjs');
  writeFileSync(
    join(consumerDir, probe),
    [
      "import { Cardrail } from '@cardrail/sdk';",
      "const local = new Cardrail({ apiKey: 'sk_test_loopbackprobe', baseUrl: 'http://127.0.0.1:4010/v1', maxRetries: 0 });",
      "console.log('local', (await local.customers.create({ type: 'consumer', email: 'ada@example.com' })).id);",
      "const production = new Cardrail({ apiKey: 'sk_test_loopbackprobe', maxRetries: 0 });",
      "await production.customers.create({ type: 'consumer', email: 'ada@example.com' }).then(",
      "  () => console.log('production answered'),",
      "  (error) => console.log('production refused', error.status),",
      ');',
    ].join('\n'),
  );
  const result = await run(process.execPath, ['--import', './mock-preload.mjs', probe], {
    cwd: consumerDir,
    timeoutMs: WAITS.start,
  });
  expect(result.code, result.output).toBe(0);
  expect(result.stdout).toMatch(/^local cus_\w+$/m);
  expect(result.stdout).toMatch(/^production refused 500$/m);
  // MSW names the request it refused (the preload's own error becomes the 500 the SDK saw).
  expect(result.stderr).toContain('POST https://api.cardrail.dev/v1/customers');
});

describe.each(scripts.filter((block) => block !== rootExample && !needsServer(block)))('$readme:$line', (block) => {
  it('runs against the mock and ends by itself', async () => {
    const result = await runScript(block);
    expect(result.code, result.output).toBe(0);
  });
});

it('the root README example receives the signed card.frozen and verifies it', async () => {
  if (!rootExample) throw new Error('README.md has no runnable example');
  const result = await runScript(rootExample);
  expect(result.code, result.output).toBe(0);
  expect(result.stdout).toMatch(/^Verified card\.frozen for card_\w+ \(manual\)$/m);
});

it.concurrent.each(['vitest', 'jest'] as const)('the %s examples pass in that runner', async (runner) => {
  const files = latest.filter((block) => block.kind === runner).map((block) => `readme/${fileOf(block)}`);
  if (files.length === 0) return;
  const args = runner === 'vitest' ? ['vitest', 'run', ...files] : ['jest', ...files];
  const result = await run('npx', ['--no-install', ...args], { cwd: consumerDir, env: ENV, timeoutMs: WAITS.run });
  expect(result.code, result.output).toBe(0);
});

it.concurrent('the msw 2 vitest examples pass with msw 2 and vitest 4 on Node 20', async () => {
  const files = withMsw2.filter((block) => block.kind === 'vitest').map((block) => `readme/${fileOf(block)}`);
  expect(files.length).toBeGreaterThan(0);
  const vitest = join(consumerMsw2Dir, 'node_modules', 'vitest', 'vitest.mjs');
  const result = await run(nodeBinary(20), [vitest, 'run', ...files], { cwd: consumerMsw2Dir, env: ENV, timeoutMs: WAITS.run });
  expect(result.code, result.output).toBe(0);
});

describe.each(blocks.filter((block) => kindOf(block) === 'fixtures'))('$readme:$line fixtures', (block) => {
  it('load through npx cardrail-mock --fixtures', async () => {
    const file = join(consumerDir, 'readme', `fixtures-L${block.line}.json`);
    writeFileSync(file, block.code);
    const requests = (JSON.parse(block.code) as { requests: unknown[] }).requests.length;
    const child = spawn('npx', ['--no-install', 'cardrail-mock', '--port', '0', '--fixtures', file], {
      cwd: consumerDir,
      detached: true,
    });
    let output = '';
    try {
      await new Promise<void>((resolve, reject) => {
        child.stdout.on('data', (chunk: Buffer) => {
          output += chunk;
          if (/listening on/.test(output)) resolve();
        });
        child.stderr.on('data', (chunk: Buffer) => (output += chunk));
        child.on('exit', (code) => reject(new Error(`cardrail-mock exited with ${code}:\n${output}`)));
      });
    } finally {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGTERM');
    }
    expect(output).toContain(`Loaded ${requests} fixture requests`);
  });
});

const servers = blocks.filter((block) => kindOf(block) === 'server');
/** The scripts that need a server, each after the last shell block of its file that starts one. */
const scriptsOf = (server: CodeBlock) =>
  scripts.filter(
    (script) =>
      needsServer(script) &&
      servers.filter((block) => block.readme === script.readme && block.line < script.line).at(-1) === server,
  );

it('every script that reads CARDRAIL_MOCK_URL comes after a shell block that starts the mock', () => {
  expect(servers.length).toBeGreaterThan(0);
  expect(scripts.filter(needsServer).filter((script) => !servers.some((server) => scriptsOf(server).includes(script)))).toEqual(
    [],
  );
});

describe.each(servers)('$readme:$line shell', (block) => {
  it.each(serverCommands(block.code) ?? [])('$line: serves on a free loopback port until stopped', async (command) => {
    // The command as written, on a free port: a test never takes the fixed one the command may name.
    const at = command.args.indexOf('--port');
    const args = at === -1 ? [...command.args, '--port', '0'] : command.args.map((arg, index) => (index === at + 1 ? '0' : arg));
    const mock = await serve('npx', ['--no-install', 'cardrail-mock', ...args], {
      cwd: consumerDir,
      env: command.env,
      ready: /listening on (http:\/\/127\.0\.0\.1:\d+\/v1)/,
    });
    try {
      const answer = await fetch(`${mock.address}/customers`, { headers: { Authorization: 'Bearer sk_test_docsshell01' } });
      expect(answer.status).toBe(200);
      // The script after the block, against this server, with the variables the command set.
      for (const script of scriptsOf(block)) {
        const result = await runScript(script, { ...command.env, CARDRAIL_MOCK_URL: mock.address });
        expect(result.code, `${label(script)}\n${result.output}`).toBe(0);
      }
    } finally {
      await mock.stop();
    }
  });
});
