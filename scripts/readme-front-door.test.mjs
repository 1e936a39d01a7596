// The root README is the front door for users: what the issue asks of it, checked so that it stays true. Each
// published package has its `npm install` line, the agent toolkit's MCP server is introduced early, every package's
// README and docs/ are linked, the quick start stays, and the development material lives in CONTRIBUTING.md, linked.
// Run with `npm run test:scripts` (part of `npm test`).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

const read = (path) => readFileSync(new URL(`../${path}`, import.meta.url), 'utf8');
const readme = read('README.md');
const lines = readme.split('\n');
const published = ['sdk', 'mock-server', 'agent-toolkit'].filter(
  (workspace) => !JSON.parse(read(`${workspace}/package.json`)).private,
);

test('an npm install line for each published package, and a link to its README', () => {
  assert.equal(published.length, 3);
  for (const workspace of published) {
    const { name } = JSON.parse(read(`${workspace}/package.json`));
    assert.match(readme, new RegExp(`^npm install (--save-dev )?${name.replace('/', '\\/')}\\b`, 'm'), name);
    assert.ok(readme.includes(`](${workspace}/README.md)`), `a link to ${workspace}/README.md`);
  }
});

test('cardrail-mcp within the first 60 lines; docs/ linked', () => {
  assert.ok(lines.slice(0, 60).some((line) => line.includes('cardrail-mcp')));
  assert.ok(readme.includes('](docs/README.md)'));
});

test('the quick start stays; development material is in CONTRIBUTING.md, linked', () => {
  for (const command of ['npm ci', 'npm run mock', 'npm test']) assert.match(readme, new RegExp(`^${command}\\b`, 'm'), command);
  assert.ok(readme.includes('](CONTRIBUTING.md)'));
  const contributing = read('CONTRIBUTING.md');
  for (const heading of ['## How `npm test` runs', '## How the spec drives everything', '## Releases', '## Layout']) {
    assert.ok(contributing.includes(`\n${heading}\n`), `CONTRIBUTING.md has ${heading}`);
    assert.ok(!readme.includes(`\n${heading}\n`), `README.md no longer has ${heading}`);
  }
  // The README keeps a short Runtimes section for users; the table of what is tested where is contributor material.
  const runtimes = contributing.slice(contributing.indexOf('\n## Runtimes\n'));
  assert.ok(runtimes.includes('| runtime | what is tested there |'), 'CONTRIBUTING.md has the runtime table');
  assert.ok(!readme.includes('| runtime | what is tested there |'), 'README.md no longer has the runtime table');
});

test("npm test's timings are contributor material, in CONTRIBUTING.md only", () => {
  assert.doesNotMatch(readme, /\b\d+ min \d+ s\b/);
  assert.match(read('CONTRIBUTING.md'), /\b\d+ min \d+ s\b/);
});

test('the key rule names every character a key may have (the mock: letters, digits and underscores)', async () => {
  const { KEY_SYNTAX } = await import('../mock-server/src/core/key-syntax.ts');
  const rule = /`sk_test_` key of (\d+) or more ([^)]+?) opens an organization/.exec(readme.replace(/\s+/g, ' '));
  assert.ok(rule, 'the README states the key rule');
  assert.equal(rule[2], 'letters, digits or underscores');
  const shortest = Number(rule[1]);
  assert.ok(KEY_SYNTAX.test(`sk_test_${'a_1'.repeat(shortest).slice(0, shortest)}`));
  assert.ok(!KEY_SYNTAX.test(`sk_test_${'a'.repeat(shortest - 1)}`));
});
