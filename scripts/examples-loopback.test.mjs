// Every client a code block of the READMEs or docs/ builds names where it sends: a loopback base URL, or a `fetch`
// (the mock's `handle`), or the block starts MSW itself with unhandled requests an error, so that its handlers answer
// the SDK's default (production) URL. A block a user pastes cannot reach production by accident. package-tests run
// the blocks of the READMEs and docs/ with every request off loopback failing; this check also covers the excerpts,
// which are not run. Run with `npm run test:scripts` (part of `npm test`).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { codeBlocks } from '../package-tests/support/readme-blocks.ts';

const root = new URL('../', import.meta.url);
const MARKDOWN = [
  'README.md',
  'sdk/README.md',
  'mock-server/README.md',
  'agent-toolkit/README.md',
  ...readdirSync(new URL('docs/', root))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];
const CODE = new Set(['ts', 'typescript', 'js', 'javascript', 'tsx', 'mjs', 'cjs']);
const CLIENT = /new (Cardrail|CardrailUsers)\(|createCardrailToolkit\(/g;

/** The text of a call's arguments: from the opening parenthesis to the one that closes it. */
function argumentsAt(code, open) {
  let depth = 0;
  for (let index = open; index < code.length; index++) {
    if (code[index] === '(') depth++;
    if (code[index] === ')' && --depth === 0) return code.slice(open + 1, index);
  }
  return code.slice(open + 1);
}

/** The clients of a block that name no loopback base URL and no fetch, when MSW does not refuse what it misses. */
function unsafeClients(code) {
  const mswRefusesTheRest = /setupServer|setupWorker/.test(code) && /onUnhandled(Frame|Request):\s*'error'/.test(code);
  if (mswRefusesTheRest) return [];
  const unsafe = [];
  for (const match of code.matchAll(CLIENT)) {
    const args = argumentsAt(code, match.index + match[0].length - 1);
    const named = /baseUrl:\s*['"`]https?:\/\/(127\.0\.0\.1|localhost|\[::1\])[:/]/.test(args) || /\bfetch\b/.test(args);
    if (!named) unsafe.push(`${match[0]}${args.replace(/\s+/g, ' ').slice(0, 80)})`);
  }
  return unsafe;
}

test('the check finds a client that would send to production, and passes named ones', () => {
  assert.equal(unsafeClients("const c = new Cardrail({ apiKey: 'sk_test_x' });").length, 1);
  assert.equal(unsafeClients("new CardrailUsers({ apiKey, baseUrl: 'http://127.0.0.1:4010/v1' })").length, 0);
  assert.equal(unsafeClients('new Cardrail({ apiKey, fetch: (request) => mock.handle(request) })').length, 0);
  assert.equal(unsafeClients("setupServer(); server.listen({ onUnhandledFrame: 'error' }); new Cardrail({ apiKey })").length, 0);
});

test('every client of the READMEs and docs/ names a loopback base URL or a fetch, or MSW refuses the rest', () => {
  const found = MARKDOWN.flatMap((file) =>
    codeBlocks(file, readFileSync(new URL(file, root), 'utf8'))
      .filter((block) => CODE.has(block.lang))
      .map((block, index, code) => {
        const text = block.file ? readFileSync(new URL(block.file, root), 'utf8') : block.code;
        // A block that continues the one before it (`// Continues ...`) runs appended to it, MSW set-up included.
        const before = /^\/\/ Continues\b/.test(text.trimStart()) ? (code[index - 1]?.code ?? '') : '';
        return { line: block.line, code: `${before}\n${text}` };
      })
      .flatMap((block) => unsafeClients(block.code).map((client) => `${file}:${block.line} ${client}`)),
  );
  assert.deepEqual(found, []);
});
