#!/usr/bin/env node
// Every relative link in the repository's Markdown (docs/, the READMEs) points at a file that exists and, when it
// names an `#anchor`, at a heading of that file (GitHub's anchor rules); so does every absolute URL of the repository
// itself (its `repository` in package.json, branch main), which the package READMEs use. Other links are not fetched.
// What a package's reader gets from its tarball is checked by scripts/check-package-readmes.mjs.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { anchorsOf, isAbsolute, linksOf, pathsWithFolders, repositoryPath, repositoryUrlOf } from './lib/markdown-links.mjs';

const root = resolve(fileURLToPath(import.meta.url), '../..');
const tracked = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '*.md'], {
  cwd: root,
  encoding: 'utf8',
})
  .split('\n')
  .filter(
    (file) => file !== '' && !file.includes('node_modules/') && !file.startsWith('.changeset/') && existsSync(join(root, file)),
  );

const anchorCache = new Map();
const anchorsIn = (file) => {
  if (!anchorCache.has(file)) anchorCache.set(file, anchorsOf(readFileSync(file, 'utf8')));
  return anchorCache.get(file);
};

const repository = repositoryUrlOf(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')));
const everyFile = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { cwd: root, encoding: 'utf8' })
  .split('\n')
  .filter((file) => file !== '' && existsSync(join(root, file)));
const repositoryPaths = pathsWithFolders(everyFile);

const broken = [];
let checked = 0;
for (const file of tracked) {
  const path = join(root, file);
  for (const { target, line } of linksOf(readFileSync(path, 'utf8'))) {
    let pathPart;
    let anchor;
    if (isAbsolute(target)) {
      const named = repository && repositoryPath(target, repository, 'main');
      if (!named) continue; // another site, mailto:
      if (named.path === undefined || !repositoryPaths.has(named.path)) {
        broken.push(`${file}:${line}: ${target} (not a file of the repository on main)`);
        continue;
      }
      pathPart = join(root, named.path);
      anchor = named.anchor;
    } else {
      [pathPart, anchor] = target.split('#');
    }
    checked++;
    const destination = pathPart === '' ? path : resolve(dirname(path), decodeURIComponent(pathPart));
    if (!existsSync(destination)) {
      broken.push(`${file}:${line}: ${target} (no such file)`);
    } else if (anchor !== undefined && anchor !== '') {
      if (statSync(destination).isDirectory() || !destination.endsWith('.md')) continue;
      if (!anchorsIn(destination).has(anchor)) {
        broken.push(`${file}:${line}: ${target} (no heading #${anchor} in ${relative(root, destination)})`);
      }
    }
  }
}

if (broken.length > 0) {
  console.error(`Markdown links: ${broken.length} broken:`);
  for (const entry of broken) console.error(`  - ${entry}`);
  process.exit(1);
}
console.log(`Markdown links: ${checked} relative and repository links in ${tracked.length} files, all resolve.`);
