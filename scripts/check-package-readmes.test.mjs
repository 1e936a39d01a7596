// The package README check (scripts/check-package-readmes.mjs) on real tarballs `npm pack` makes of small packages in
// a temporary directory: a README whose links all resolve for a reader of the tarball passes; each kind of dead link
// and each missing package.json field is refused, naming the line and what to do; the command fails under npm test's
// packs folder. Run with `npm run test:scripts` (part of `npm test`).
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { checkPackageReadme, readTarball } from './check-package-readmes.mjs';
import { pathsWithFolders } from './lib/markdown-links.mjs';

const checker = fileURLToPath(new URL('./check-package-readmes.mjs', import.meta.url));
const repository = 'https://github.com/cardrail/cardrail';
const manifest = {
  name: '@cardrail/example',
  version: '0.0.0',
  license: 'MIT',
  repository: { type: 'git', url: `git+${repository}.git`, directory: 'example' },
  homepage: `${repository}/tree/main/example#readme`,
  bugs: { url: `${repository}/issues` },
  files: ['README.md', 'examples'],
};
/** The repository a reader's absolute URLs land in. */
const repositoryFiles = pathsWithFolders(['README.md', 'docs/testing.md', 'example/shots/a.png']);
const readRepositoryFile = (path) => (path === 'docs/testing.md' ? '# Testing\n## With vitest\n' : '# Cardrail\n');

const dirs = [];
after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** Packs a package of these files (package.json from `manifestFields`) with npm, and returns the tarball's path. */
function pack(readme, manifestFields = manifest, extra = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'cardrail-readmes-test-'));
  dirs.push(dir);
  const files = { 'package.json': JSON.stringify(manifestFields), 'README.md': readme, ...extra };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, 'package', path, '..'), { recursive: true });
    writeFileSync(join(dir, 'package', path), text);
  }
  const [packed] = JSON.parse(
    execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], {
      cwd: join(dir, 'package'),
      encoding: 'utf8',
    }),
  );
  return join(dir, packed.filename);
}

const check = (tarball) =>
  checkPackageReadme({ workspace: 'example', files: readTarball(tarball), repository, repositoryFiles, readRepositoryFile });

// A path longer than a tar header's 100-character name field: npm stores it with the ustar prefix.
const deep = `examples/${'very-long-folder-name/'.repeat(5)}fixtures.json`;
const good = [
  '# Example',
  '## Usage',
  `See [usage](#usage), [the fixtures](${deep}) and [the guide](${repository}/blob/main/docs/testing.md#with-vitest).`,
  `![A shot](https://raw.githubusercontent.com/cardrail/cardrail/main/example/shots/a.png)`,
  `[Docs](${repository}/tree/main/docs) and [elsewhere](https://openapi-ts.dev/openapi-fetch/).`,
].join('\n');

describe('check-package-readmes', () => {
  test('reads every file of a tarball, long paths included, and passes a README whose links all resolve', () => {
    const files = readTarball(pack(good, manifest, { [deep]: '{}' }));
    assert.deepEqual([...files.keys()].sort(), ['README.md', deep, 'package.json'].sort());
    assert.equal(files.get(deep).toString('utf8'), '{}');
    assert.deepEqual(checkPackageReadme({ workspace: 'example', files, repository, repositoryFiles, readRepositoryFile }), []);
  });

  // One tarball with every kind of mistake (npm pack takes seconds): dead links, and a package.json without
  // repository (and its directory), homepage and bugs.
  const { repository: _repository, homepage: _homepage, bugs: _bugs, ...bare } = manifest;
  const badReadme = [
    '# Example',
    '[testing](../docs/testing.md)',
    '![shot](shots/a.png)',
    '[section](#nowhere)',
    `[gone](${repository}/blob/main/docs/gone.md)`,
    `[anchor](${repository}/blob/main/docs/testing.md#with-jest)`,
    `[branch](${repository}/blob/feature/README.md)`,
  ].join('\n');
  let bad;
  const badTarball = () => {
    bad ??= pack(badReadme, { ...bare, repository: `${repository}.git` });
    return bad;
  };

  test('refuses links a reader of the tarball cannot follow, naming the line and the fix', () => {
    assert.deepEqual(
      check(badTarball()).filter((problem) => problem.startsWith('README.md')),
      [
        `README.md:2: ../docs/testing.md (outside the package: link to ${repository}/blob/main/docs/testing.md instead)`,
        `README.md:3: shots/a.png (not in the tarball: ship it, or link to ${repository}/blob/main/example/shots/a.png)`,
        'README.md:4: #nowhere (no such heading in the README)',
        `README.md:5: ${repository}/blob/main/docs/gone.md (no docs/gone.md in the repository)`,
        `README.md:6: ${repository}/blob/main/docs/testing.md#with-jest (no heading #with-jest in docs/testing.md)`,
        `README.md:7: ${repository}/blob/feature/README.md (not a file of the repository: use ${repository}/blob/main/<path>)`,
      ],
    );
  });

  test('refuses a package.json without repository (and its directory), homepage and bugs', () => {
    const problems = check(badTarball()).filter((problem) => problem.startsWith('package.json'));
    assert.equal(problems.length, 3);
    assert.match(problems[0], /repository should be .*"directory":"example"/);
    assert.match(problems[1], /homepage/);
    assert.match(problems[2], /bugs should be https:\/\/github.com\/cardrail\/cardrail\/issues/);
  });

  test("the command fails on npm test's packs folder when a README has a dead link", async () => {
    const tarball = badTarball();
    const packs = join(tarball, '..');
    for (const workspace of ['sdk', 'mock-server', 'agent-toolkit']) {
      const summary = { name: `@cardrail/${workspace}`, version: '0.0.0', filename: tarball.split('/').pop(), files: [] };
      writeFileSync(join(packs, `${workspace}.json`), JSON.stringify(summary));
    }
    const result = await new Promise((resolve) =>
      execFile(process.execPath, [checker], { env: { ...process.env, CARDRAIL_PACKS_DIR: packs } }, (error, _stdout, stderr) =>
        resolve({ code: error?.code ?? 0, stderr }),
      ),
    );
    assert.equal(result.code, 1);
    assert.match(result.stderr, /cardrail-example-0\.0\.0\.tgz: 9 problems:/);
    assert.match(
      result.stderr,
      /README\.md:2: \.\.\/docs\/testing\.md \(outside the package: link to .*\/blob\/main\/docs\/testing\.md/,
    );
  });
});
