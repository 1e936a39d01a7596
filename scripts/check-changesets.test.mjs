// The changeset gate refuses what `changeset version` would choke on or silently drop, naming the file; run with
// `node --test scripts/` (part of `npm test`). Each case is a small workspace in a temporary directory.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const checker = fileURLToPath(new URL('./check-changesets.mjs', import.meta.url));

function workspace(changesets) {
  const dir = mkdtempSync(join(tmpdir(), 'cardrail-changesets-'));
  const write = (path, content) => {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  };
  write('package.json', { name: 'fixture-root', private: true, workspaces: ['packages/*'] });
  // changesets finds an npm workspace by its lockfile.
  write('package-lock.json', { name: 'fixture-root', lockfileVersion: 3, requires: true, packages: {} });
  write('packages/lib/package.json', { name: '@fixture/lib', version: '1.2.3' });
  write('packages/tool/package.json', { name: '@fixture/tool', version: '0.1.0', dependencies: { '@fixture/lib': '^1.2.3' } });
  write('packages/internal/package.json', { name: '@fixture/internal', version: '0.0.0', private: true });
  write('packages/skipped/package.json', { name: '@fixture/skipped', version: '1.0.0' });
  write('.changeset/config.json', {
    changelog: '@changesets/cli/changelog',
    commit: false,
    access: 'public',
    baseBranch: 'main',
    updateInternalDependencies: 'patch',
    ignore: ['@fixture/skipped'],
  });
  write('.changeset/README.md', '# Changesets\n\nNot a changeset.\n');
  for (const [name, content] of Object.entries(changesets)) write(`.changeset/${name}`, content);
  return dir;
}

/** Runs the checker on a workspace directory; resolves with its exit status and everything it printed. */
function run(dir) {
  return new Promise((resolve) => {
    execFile(process.execPath, [checker, '--cwd', dir], (error, stdout, stderr) => {
      resolve({ status: error ? error.code : 0, output: stdout + stderr });
    });
  });
}

async function check(changesets) {
  const dir = workspace(changesets);
  try {
    return await run(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('valid changesets pass and the release plan is printed', async () => {
  const { status, output } = await check({
    'lib-feature.md': '---\n"@fixture/lib": minor\n---\n\nA new option.\n',
    'tool-fix.md': "---\n'@fixture/tool': patch\n---\n\nA fix.\n",
  });
  assert.equal(status, 0, output);
  assert.match(output, /2 pending, valid/);
  assert.match(output, /@fixture\/lib 1\.2\.3 -> 1\.3\.0 \(minor\)/);
  assert.match(output, /@fixture\/tool 0\.1\.0 -> 0\.1\.1 \(patch\)/);
});

test('no pending changesets is valid', async () => {
  const { status, output } = await check({});
  assert.equal(status, 0, output);
  assert.match(output, /none pending/);
});

const refused = [
  [
    'naming an unknown package',
    '---\n"@fixture/nope": minor\n---\n\nText.\n',
    /"@fixture\/nope" is not a package of this repository/,
  ],
  ['naming a private package', '---\n"@fixture/internal": patch\n---\n\nText.\n', /"@fixture\/internal" is private/],
  ['naming an ignored package', '---\n"@fixture/skipped": patch\n---\n\nText.\n', /"@fixture\/skipped" is ignored/],
  ['with an unknown bump type', '---\n"@fixture/lib": huge\n---\n\nText.\n', /invalid version type "huge"/],
  ['with an empty summary', '---\n"@fixture/lib": patch\n---\n\n', /no summary/],
  ['without front matter', 'Just a note about a change.\n', /missing or invalid frontmatter/],
  ['whose front matter names no package', '---\n---\n\nText.\n', /names no package/],
];

describe('refused changesets', { concurrency: true }, () => {
  for (const [what, content, message] of refused) {
    test(`a changeset ${what} is refused, with its file name`, async () => {
      const { status, output } = await check({ 'good.md': '---\n"@fixture/lib": patch\n---\n\nFine.\n', 'broken.md': content });
      assert.equal(status, 1, output);
      assert.match(output, /\.changeset\/broken\.md: /);
      assert.match(output, message);
      assert.doesNotMatch(output, /good\.md/);
    });
  }
});

test('an invalid config is refused', async () => {
  const dir = workspace({ 'lib.md': '---\n"@fixture/lib": patch\n---\n\nFine.\n' });
  try {
    writeFileSync(join(dir, '.changeset/config.json'), JSON.stringify({ baseBranch: 'main', ignore: ['@fixture/gone'] }));
    const { status, output } = await run(dir);
    assert.equal(status, 1, output);
    assert.match(output, /\.changeset\/config\.json: .*@fixture\/gone/s);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
