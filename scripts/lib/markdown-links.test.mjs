// The Markdown reading shared by the link checks: which targets a reader can follow, and which repository file an
// absolute URL names. Run with `npm run test:scripts` (part of `npm test`).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { anchorsOf, linksOf, pathsWithFolders, repositoryPath, repositoryUrlOf } from './markdown-links.mjs';

const repository = 'https://github.com/cardrail/cardrail';

describe('linksOf', () => {
  test('finds inline links, images, reference definitions and HTML href/src, not code', () => {
    const markdown = [
      'See [the guide](docs/guide.md#setup) and ![shot](img/a.png "title").',
      '[ref]: https://example.com/ref',
      '<img src="img/b.png" alt=""> <a href="#usage">usage</a>',
      'Not `[code](nope.md)` here.',
      '```md',
      '[fenced](fenced.md)',
      '```',
    ].join('\n');
    assert.deepEqual(
      linksOf(markdown).map((link) => `${link.line}:${link.target}`),
      ['1:docs/guide.md#setup', '1:img/a.png', '2:https://example.com/ref', '3:img/b.png', '3:#usage'],
    );
  });

  test('finds a link whose text runs over two lines, at the line it starts', () => {
    assert.deepEqual(linksOf('Intro.\nSee [the root\nREADME](../README.md#runs) and `[not](a.md)`.\n'), [
      { target: '../README.md#runs', line: 2 },
    ]);
  });
});

describe('anchorsOf', () => {
  test("follows GitHub's rules: punctuation dropped, spaces to dashes, repeats numbered", () => {
    assert.deepEqual(
      [...anchorsOf('# Use it in-process (vitest, jest)\n## Notes\n## Notes\n```\n# not\n```')],
      ['use-it-in-process-vitest-jest', 'notes', 'notes-1'],
    );
  });
});

describe('repositoryPath', () => {
  test('reads blob, tree, raw and raw.githubusercontent.com URLs of the branch', () => {
    const of = (url) => repositoryPath(url, repository, 'main');
    assert.deepEqual(of(`${repository}/blob/main/docs/testing.md#vitest`), { path: 'docs/testing.md', anchor: 'vitest' });
    assert.deepEqual(of(`${repository}/tree/main/mock-server/`), { path: 'mock-server', anchor: undefined });
    assert.deepEqual(of(`${repository}/raw/main/a%20b.png?raw=true`), { path: 'a b.png', anchor: undefined });
    assert.deepEqual(of('https://raw.githubusercontent.com/cardrail/cardrail/main/x/y.png'), {
      path: 'x/y.png',
      anchor: undefined,
    });
    assert.deepEqual(of(repository), { path: '', anchor: undefined });
  });

  test('a URL of the repository that names no file of the branch has no path; another site is not the repository', () => {
    assert.deepEqual(repositoryPath(`${repository}/blob/dev/README.md`, repository, 'main'), {
      path: undefined,
      anchor: undefined,
    });
    assert.equal(repositoryPath(`${repository}/issues`, repository, 'main').path, undefined);
    assert.equal(repositoryPath('https://github.com/cardrail/cardrail-other/blob/main/x', repository, 'main'), undefined);
    assert.equal(repositoryPath('https://openapi-ts.dev/', repository, 'main'), undefined);
  });
});

test('repositoryUrlOf takes the string and object forms; pathsWithFolders adds every folder', () => {
  assert.equal(repositoryUrlOf({ repository: { url: 'git+https://github.com/cardrail/cardrail.git' } }), repository);
  assert.equal(repositoryUrlOf({ repository: 'https://github.com/cardrail/cardrail' }), repository);
  assert.equal(repositoryUrlOf({}), undefined);
  assert.deepEqual([...pathsWithFolders(['a/b/c.md', 'd.md'])].sort(), ['', 'a', 'a/b', 'a/b/c.md', 'd.md']);
});
