#!/usr/bin/env node
// Every relative link in the repository's Markdown (docs/, the READMEs) points at a file that exists and, when it
// names an `#anchor`, at a heading of that file (GitHub's anchor rules). External links are not fetched.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = resolve(fileURLToPath(import.meta.url), '../..');
const tracked = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '*.md'], {
  cwd: root,
  encoding: 'utf8',
})
  .split('\n')
  .filter(
    (file) => file !== '' && !file.includes('node_modules/') && !file.startsWith('.changeset/') && existsSync(join(root, file)),
  );

/** GitHub's heading anchor: lower case, punctuation other than `-` and `_` dropped, spaces to `-`, repeats numbered. */
function anchorsOf(markdown) {
  const seen = new Map();
  const anchors = new Set();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const heading = !fenced && /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const base = heading[1]
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

/** Inline links and images, outside code spans and fenced blocks. */
function linksOf(markdown) {
  const links = [];
  let fenced = false;
  markdown.split('\n').forEach((line, index) => {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    if (fenced) return;
    const text = line.replace(/`[^`]*`/g, '');
    for (const match of text.matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g))
      links.push({ target: match[1], line: index + 1 });
  });
  return links;
}

const anchorCache = new Map();
const anchorsIn = (file) => {
  if (!anchorCache.has(file)) anchorCache.set(file, anchorsOf(readFileSync(file, 'utf8')));
  return anchorCache.get(file);
};

const broken = [];
let checked = 0;
for (const file of tracked) {
  const path = join(root, file);
  for (const { target, line } of linksOf(readFileSync(path, 'utf8'))) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // http:, https:, mailto:
    checked++;
    const [pathPart, anchor] = target.split('#');
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
console.log(`Markdown links: ${checked} relative links in ${tracked.length} files, all resolve.`);
