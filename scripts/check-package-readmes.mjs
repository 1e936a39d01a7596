#!/usr/bin/env node
// The published packages' READMEs as their readers get them: on npm's page, in node_modules, and on the repository
// host. For each package's tarball (the one `npm test` packed, CARDRAIL_PACKS_DIR; otherwise packed here), fails on:
//   - a relative link or image to a file the tarball does not ship (npm's page and node_modules have nothing else),
//     or one that climbs out of the package (`../docs/...`);
//   - an absolute URL of the repository (root package.json's `repository`, branch main: /blob/, /tree/, /raw/ or
//     raw.githubusercontent.com) whose path is not in the repository, or whose `#anchor` is no heading of that file;
//   - an `#anchor` that is no heading of the README itself;
//   - a package.json without `repository` (the repository's URL, `directory` the package's folder), `homepage` and
//     `bugs`, which npm's page links to.
// Other absolute URLs are not fetched.
//
//   node scripts/check-package-readmes.mjs
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { anchorsOf, isAbsolute, linksOf, pathsWithFolders, repositoryPath, repositoryUrlOf } from './lib/markdown-links.mjs';
import { packedTarball, packWorkspace } from './lib/packs.mjs';

/** The branch the READMEs' absolute repository URLs name. */
export const BRANCH = 'main';
const PUBLISHED = ['sdk', 'mock-server', 'agent-toolkit'];

/** The files of an npm tarball (a gzipped ustar archive), by their path inside the package (`package/` dropped). */
export function readTarball(path) {
  const archive = gunzipSync(readFileSync(path));
  const files = new Map();
  const text = (start, length) => archive.toString('utf8', start, start + length).replace(/\0.*$/s, '');
  let longName;
  for (let offset = 0; offset + 512 <= archive.length; ) {
    const name = text(offset, 100);
    if (name === '') break;
    const size = Number.parseInt(text(offset + 124, 12).trim() || '0', 8);
    const type = text(offset + 156, 1);
    const prefix = text(offset + 345, 155);
    const body = archive.subarray(offset + 512, offset + 512 + size);
    offset += 512 + Math.ceil(size / 512) * 512;
    if (type === 'L') {
      longName = body.toString('utf8').replace(/\0.*$/s, '');
      continue;
    }
    const full = longName ?? (prefix ? `${prefix}/${name}` : name);
    longName = undefined;
    if (type === '0' || type === '' || type === '\0') files.set(full.replace(/^[^/]+\//, ''), body);
  }
  return files;
}

/**
 * What is wrong with one package's README and package.json for a reader of its tarball. `files` is the tarball's
 * content (readTarball); `repository` the repository's web address; `repositoryFiles` every path in it (files and
 * folders, pathsWithFolders); `readRepositoryFile(path)` a repository file's text, for anchors.
 */
export function checkPackageReadme({ workspace, files, repository, repositoryFiles, readRepositoryFile }) {
  const problems = [];
  const manifest = JSON.parse(files.get('package.json')?.toString('utf8') ?? '{}');
  const readme = files.get('README.md')?.toString('utf8');
  const expectedRepository = { type: 'git', url: `git+${repository}.git`, directory: workspace };
  if (JSON.stringify(manifest.repository) !== JSON.stringify(expectedRepository)) {
    problems.push(`package.json: repository should be ${JSON.stringify(expectedRepository)}`);
  }
  if (typeof manifest.homepage !== 'string' || !manifest.homepage.startsWith(`${repository}/`)) {
    problems.push(`package.json: homepage should be a page of ${repository} (the package's README)`);
  }
  const bugs = typeof manifest.bugs === 'string' ? manifest.bugs : manifest.bugs?.url;
  if (bugs !== `${repository}/issues`) problems.push(`package.json: bugs should be ${repository}/issues`);
  if (readme === undefined) return [...problems, 'README.md: not in the tarball'];

  const anchorCache = new Map();
  const anchorsIn = (key, read) => {
    if (!anchorCache.has(key)) anchorCache.set(key, anchorsOf(read()));
    return anchorCache.get(key);
  };
  const shipped = pathsWithFolders([...files.keys()]);
  for (const { target, line } of linksOf(readme)) {
    const at = `README.md:${line}: ${target}`;
    if (target.startsWith('#')) {
      if (!anchorsIn('README.md', () => readme).has(target.slice(1))) problems.push(`${at} (no such heading in the README)`);
      continue;
    }
    if (isAbsolute(target)) {
      const named = repositoryPath(target, repository, BRANCH);
      if (named === undefined) continue; // another site: not fetched
      if (named.path === undefined) {
        problems.push(`${at} (not a file of the repository: use ${repository}/blob/${BRANCH}/<path>)`);
      } else if (!repositoryFiles.has(named.path)) {
        problems.push(`${at} (no ${named.path || 'root'} in the repository)`);
      } else if (named.anchor && named.path.endsWith('.md')) {
        if (!anchorsIn(`repo:${named.path}`, () => readRepositoryFile(named.path)).has(named.anchor)) {
          problems.push(`${at} (no heading #${named.anchor} in ${named.path})`);
        }
      }
      continue;
    }
    const [pathPart, anchor] = target.split('#');
    const path = posix.normalize(decodeURIComponent(pathPart)).replace(/^\.\/|\/+$/g, '');
    if (path.startsWith('..')) {
      const inRepository = posix.join(workspace, path);
      problems.push(`${at} (outside the package: link to ${repository}/blob/${BRANCH}/${inRepository} instead)`);
    } else if (!shipped.has(path)) {
      problems.push(`${at} (not in the tarball: ship it, or link to ${repository}/blob/${BRANCH}/${workspace}/${path})`);
    } else if (anchor && path.endsWith('.md') && !anchorsIn(path, () => files.get(path).toString('utf8')).has(anchor)) {
      problems.push(`${at} (no heading #${anchor} in ${path})`);
    }
  }
  return problems;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..');
  const repository = repositoryUrlOf(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')));
  if (!repository) throw new Error('the root package.json names no repository');
  const tracked = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
    cwd: root,
    encoding: 'utf8',
  })
    .split('\n')
    .filter((file) => file !== '' && existsSync(join(root, file)));
  const repositoryFiles = pathsWithFolders(tracked);
  const readRepositoryFile = (path) => readFileSync(join(root, path), 'utf8');

  const scratch = process.env.CARDRAIL_PACKS_DIR ? undefined : mkdtempSync(join(tmpdir(), 'cardrail-readmes-'));
  let failures = 0;
  try {
    for (const workspace of PUBLISHED) {
      const packed = packedTarball(workspace) ?? packWorkspace(join(root, workspace), scratch);
      const files = readTarball(packed.path);
      const problems = checkPackageReadme({ workspace, files, repository, repositoryFiles, readRepositoryFile });
      const links = linksOf(files.get('README.md')?.toString('utf8') ?? '').length;
      if (problems.length === 0) {
        console.log(`${packed.filename}: README.md's ${links} links all resolve for a reader of the tarball`);
      } else {
        failures += problems.length;
        console.error(`${packed.filename}: ${problems.length} problems:`);
        for (const problem of problems) console.error(`  - ${problem}`);
      }
    }
  } finally {
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  }
  if (failures > 0) process.exit(1);
}
