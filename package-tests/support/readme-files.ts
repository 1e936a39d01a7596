// The Markdown files whose code blocks package-tests run (the READMEs and the guides of docs/), and the blocks that are
// copies of repository files (`<!-- file: path -->` on the line before the fence): each must be its file word for
// word, so that what a README or guide shows is what a test runs. Run this file with `--write`
// (`node package-tests/support/readme-files.ts --write`) to copy the files into the Markdown after editing them.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { codeBlocks } from './readme-blocks.ts';

export const READMES = ['README.md', 'sdk/README.md', 'mock-server/README.md', 'agent-toolkit/README.md'];
const repoRoot = join(import.meta.dirname, '..', '..');
/** Every guide of docs/, a new one included without a change here. */
export const DOCS = readdirSync(join(repoRoot, 'docs'))
  .filter((name) => name.endsWith('.md'))
  .sort()
  .map((name) => `docs/${name}`);
export const MARKDOWN = [...READMES, ...DOCS];

/** Every block copied from a file whose text differs from that file now. */
export function staleFileBlocks(): { readme: string; line: number; file: string; expected: string }[] {
  return MARKDOWN.flatMap((readme) =>
    codeBlocks(readme, readFileSync(join(repoRoot, readme), 'utf8')).flatMap((block) => {
      if (block.file === undefined) return [];
      const expected = readFileSync(join(repoRoot, block.file), 'utf8');
      return block.code === expected ? [] : [{ readme, line: block.line, file: block.file, expected }];
    }),
  );
}

/** Replaces each stale block's lines with its file's. */
function writeFileBlocks(): void {
  for (const readme of MARKDOWN) {
    const path = join(repoRoot, readme);
    const lines = readFileSync(path, 'utf8').split('\n');
    // From the last block up, so that earlier line numbers stay right.
    for (const stale of staleFileBlocks()
      .filter((block) => block.readme === readme)
      .reverse()) {
      const open = stale.line - 1;
      let close = open + 1;
      while (!(lines[close] ?? '').trimStart().startsWith('```')) close++;
      lines.splice(open + 1, close - open - 1, ...stale.expected.replace(/\n$/, '').split('\n'));
    }
    writeFileSync(path, lines.join('\n'));
  }
}

if (process.argv[1] === import.meta.filename) {
  if (process.argv.includes('--write')) writeFileBlocks();
  const stale = staleFileBlocks();
  for (const block of stale) console.log(`${block.readme}:${block.line} differs from ${block.file}`);
  process.exitCode = stale.length > 0 ? 1 : 0;
}
