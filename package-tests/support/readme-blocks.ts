/** A fenced code block of a Markdown file. */
export interface CodeBlock {
  /** The README, relative to the repository root. */
  readme: string;
  /** The line of the opening fence. */
  line: number;
  lang: string;
  code: string;
  /**
   * The repository file the block shows, when the line before its fence says so (`<!-- file: path -->`): the block
   * must be that file, word for word, and the file is what runs (the README cannot drift from what is tested).
   */
  file?: string;
}

/**
 * How a README's code block is checked. `script`: run with Node against the mock; `vitest` (imports vitest) and
 * `jest` (a CommonJS file with `test(`): run by that runner in the user's project; `fixtures`: a mock fixtures file,
 * loaded by the CLI; `server`: shell commands that each start `cardrail-mock` (`npx cardrail-mock ...`), each run on
 * a free loopback port, asked a request and stopped; `excerpt`: a fragment that says so on its first line
 * (`// Excerpt: ...`) and is not run; `file`: a copy of a repository file (`<!-- file: path -->` on the line
 * before), checked against it, which its own test runs; `other`: other shell commands, diagrams and other JSON, not
 * run. `unrunnable`: code in a language no rule runs (tsx, jsx, mjs, cjs): a test fails on it.
 */
export type BlockKind = 'script' | 'vitest' | 'jest' | 'fixtures' | 'server' | 'excerpt' | 'file' | 'other' | 'unrunnable';

/** A `cardrail-mock` start of a shell block: the variables set before it and its flags. */
export interface ServerCommand {
  line: string;
  env: Record<string, string>;
  args: string[];
}

const SERVER_START = /^((?:[A-Z_][A-Z0-9_]*=\S+\s+)*)(?:npx\s+)?cardrail-mock((?:\s+--?[\w-]+(?:[= ][^\s-]\S*)?)*)\s*$/;

/**
 * The `cardrail-mock` starts of a shell block, when each of its commands is one (comments after `#` aside), else
 * undefined. A subcommand (`state`, `trigger`), a pipe, a background `&`, a `--host` off loopback or anything else
 * makes it undefined (not run: a test listens on loopback only).
 */
export function serverCommands(code: string): ServerCommand[] | undefined {
  const lines = code
    .split('\n')
    .map((line) =>
      line
        .replace(/\s+#.*$/, '')
        .replace(/^#.*$/, '')
        .trim(),
    )
    .filter((line) => line !== '');
  const commands = lines.map((line) => {
    const match = SERVER_START.exec(line);
    if (!match) return undefined;
    const env = Object.fromEntries(
      (match[1] ?? '')
        .trim()
        .split(/\s+/)
        .filter(Boolean)
        .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
    );
    return { line, env, args: (match[2] ?? '').trim().split(/\s+/).filter(Boolean) };
  });
  const loopback = (command: ServerCommand) => {
    const host = command.args[command.args.indexOf('--host') + 1];
    return !command.args.includes('--host') || ['127.0.0.1', 'localhost', '::1'].includes(host ?? '');
  };
  return lines.length > 0 && commands.every((command): command is ServerCommand => command !== undefined && loopback(command))
    ? commands
    : undefined;
}

/** A block to run: its own code, or a chain of blocks where later ones start with `// Continues ...`. */
export interface RunnableBlock {
  kind: 'script' | 'vitest' | 'jest';
  readme: string;
  line: number;
  code: string;
  /**
   * 2 for a block that shows msw 2's form (its first line starts with `// msw 2`): it runs in the project of a user on
   * Node 20 with msw 2. Every other block runs with what npm installs today (msw 3).
   */
  msw: 2 | 3;
}

/** The msw major a block is written for: 2 when its first line says so (`// msw 2 ...`), else 3. */
function mswMajorOf(code: string): 2 | 3 {
  return /^\/\/ msw 2\b/i.test(code.trimStart()) ? 2 : 3;
}

const FENCE = /^(\s*)(```|~~~)\s*([\w-]*)/;
const FILE_COMMENT = /^\s*<!--\s*file:\s*(\S+)\s*-->\s*$/;

export function codeBlocks(readme: string, markdown: string): CodeBlock[] {
  const blocks: CodeBlock[] = [];
  const lines = markdown.split('\n');
  for (let index = 0; index < lines.length; index++) {
    const open = FENCE.exec(lines[index] ?? '');
    if (!open) continue;
    const [, indent = '', fence = '', lang = ''] = open;
    const body: string[] = [];
    let end = index + 1;
    for (; end < lines.length && !(lines[end] ?? '').trimStart().startsWith(fence); end++) {
      // Blocks inside list items are indented as the item is.
      body.push((lines[end] ?? '').startsWith(indent) ? (lines[end] ?? '').slice(indent.length) : (lines[end] ?? ''));
    }
    const file = FILE_COMMENT.exec(lines[index - 1] ?? '')?.[1];
    blocks.push({ readme, line: index + 1, lang, code: `${body.join('\n')}\n`, ...(file ? { file } : {}) });
    index = end;
  }
  return blocks;
}

export function kindOf(block: CodeBlock): BlockKind | 'continuation' {
  if (block.file !== undefined) return 'file';
  const first = block.code.trimStart().split('\n')[0] ?? '';
  if (['ts', 'typescript', 'js', 'javascript'].includes(block.lang)) {
    if (/^\/\/ Excerpt\b/.test(first)) return 'excerpt';
    if (/^\/\/ Continues\b/.test(first)) return 'continuation';
    if (/from ['"]vitest['"]/.test(block.code)) return 'vitest';
    if (/\brequire\(/.test(block.code) && /\btest\(/.test(block.code)) return 'jest';
    return 'script';
  }
  if (['tsx', 'jsx', 'mjs', 'cjs'].includes(block.lang)) return 'unrunnable';
  if (block.lang === 'json' && /"requests"\s*:/.test(block.code)) return 'fixtures';
  if (['sh', 'bash', 'shell'].includes(block.lang) && serverCommands(block.code)) return 'server';
  return 'other';
}

/** The blocks to run, each continuation appended to the runnable block before it in the same README. */
export function runnableBlocks(blocks: CodeBlock[]): RunnableBlock[] {
  const runnable: RunnableBlock[] = [];
  let previous: RunnableBlock | undefined;
  for (const block of blocks) {
    const kind = kindOf(block);
    if (kind === 'continuation') {
      if (previous?.readme !== block.readme) {
        throw new Error(`${block.readme}:${block.line} continues a block, but no runnable block comes before it`);
      }
      previous.code += `\n${block.code}`;
    } else if (kind === 'script' || kind === 'vitest' || kind === 'jest') {
      previous = { kind, readme: block.readme, line: block.line, code: block.code, msw: mswMajorOf(block.code) };
      runnable.push(previous);
    }
  }
  return runnable;
}
