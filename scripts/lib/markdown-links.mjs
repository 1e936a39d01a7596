// Reading links out of Markdown the way GitHub and npm render it, for the link checks (scripts/check-doc-links.mjs
// over the repository, scripts/check-package-readmes.mjs over the packed tarballs). Types: markdown-links.d.mts.

/** GitHub's heading anchor: lower case, punctuation other than `-` and `_` dropped, spaces to `-`, repeats numbered. */
export function anchorsOf(markdown) {
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

/**
 * Every link target a reader can follow, outside code spans and fenced blocks: inline links and images
 * (`[text](target)`, `![alt](target)`, their text may run over lines), reference definitions (`[name]: target`) and
 * the `href`/`src` of HTML tags.
 */
export function linksOf(markdown) {
  // Fenced blocks and code spans blanked out, every line kept, so that an offset still tells the line.
  let fenced = false;
  const text = markdown
    .split('\n')
    .map((line) => {
      const fence = /^\s*(```|~~~)/.test(line);
      if (fence) fenced = !fenced;
      return fenced || fence ? '' : line.replace(/`[^`]*`/g, (span) => ' '.repeat(span.length));
    })
    .join('\n');
  const lineAt = (offset) => text.slice(0, offset).split('\n').length;
  const links = [];
  const add = (target, offset) => links.push({ target, line: lineAt(offset) });
  for (const match of text.matchAll(/!?\[[^\]]*\]\(<?([^)\s>]+)>?(?:\s+"[^"]*")?\)/g)) add(match[1], match.index);
  for (const match of text.matchAll(/^ {0,3}\[[^\]]+\]:\s+<?([^\s>]+)>?/gm)) add(match[1], match.index);
  for (const match of text.matchAll(/<(?:a|img|source)\b[^>]*?\s(?:href|src|srcset)=["']([^"'\s]+)/gi))
    add(match[1], match.index);
  return links.sort((a, b) => a.line - b.line);
}

/** True for a target with a scheme (`https:`, `mailto:`): a link out of the file's own tree. */
export const isAbsolute = (target) => /^[a-z][a-z0-9+.-]*:/i.test(target);

/**
 * The repository file (or folder) an absolute URL of the repository `repository` (`https://github.com/owner/name`)
 * names on its branch `branch`, as `{ path, anchor }`; undefined for any other URL. Knows the forms GitHub serves:
 * `/blob/<branch>/<path>`, `/tree/<branch>/<path>`, `/raw/<branch>/<path>` and raw.githubusercontent.com.
 */
export function repositoryPath(url, repository, branch) {
  const [withoutAnchor, anchor] = url.split('#');
  const [withoutQuery] = withoutAnchor.split('?');
  const base = repository.replace(/\/+$/, '');
  const raw = base.replace('https://github.com/', 'https://raw.githubusercontent.com/');
  const prefixes = ['blob', 'tree', 'raw'].map((kind) => `${base}/${kind}/${branch}`);
  prefixes.push(`${raw}/${branch}`, `${raw}/refs/heads/${branch}`);
  if (withoutQuery === base || withoutQuery === `${base}/`) return { path: '', anchor };
  for (const prefix of prefixes) {
    if (withoutQuery === prefix) return { path: '', anchor };
    if (withoutQuery.startsWith(`${prefix}/`)) {
      return { path: decodeURIComponent(withoutQuery.slice(prefix.length + 1)).replace(/\/+$/, ''), anchor };
    }
  }
  if (withoutQuery.startsWith(`${base}/`) || withoutQuery.startsWith(`${raw}/`)) return { path: undefined, anchor };
  return undefined;
}

/**
 * The web address of the repository a package.json names (`repository` as a string or `{ url }`, `git+` and `.git`
 * dropped): `https://github.com/owner/name`.
 */
export function repositoryUrlOf(manifest) {
  const url = typeof manifest.repository === 'string' ? manifest.repository : manifest.repository?.url;
  if (!url) return undefined;
  return url.replace(/^git\+/, '').replace(/\.git$/, '');
}

/** Every file of a list of repository paths, and every folder that holds one: what a repository URL may name. */
export function pathsWithFolders(files) {
  const paths = new Set(['']);
  for (const file of files) {
    const parts = file.split('/');
    for (let end = 1; end <= parts.length; end++) paths.add(parts.slice(0, end).join('/'));
  }
  return paths;
}
