import { closeSync, existsSync, fdatasyncSync, openSync, readFileSync, writeSync } from 'node:fs';

/**
 * state.db.commits: how many commits the database has taken, and the process holding the directory, in one line of
 * fixed width rewritten in place after every commit (`commits 00000000000000000042 pid 0000012345`). SQLite cannot
 * tell a write-ahead log that was removed, emptied or overwritten from one that never existed: it starts from what
 * the database file holds, silently without the commits the log had. The count kept outside the database is what
 * makes that loss visible at the next start (docs/standalone-server.md#damage-is-never-silent). Rewriting a few
 * bytes in place needs no new disk block, so it works on a full disk too.
 */
export interface SealContent {
  commits: number;
  /** The process that holds (or last held) the directory; 0 after a clean stop. */
  pid: number;
}

const PATTERN = /^commits (\d{20}) pid (\d{10})\n$/;
const LINE_LENGTH = 'commits  pid \n'.length + 20 + 10;

function line(content: SealContent): string {
  return `commits ${String(content.commits).padStart(20, '0')} pid ${String(content.pid).padStart(10, '0')}\n`;
}

/** The seal's content; undefined when the file is absent; `damaged` when it is not in its own format. */
export function readSeal(path: string): SealContent | 'damaged' | undefined {
  if (!existsSync(path)) return undefined;
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return 'damaged';
  }
  const match = PATTERN.exec(text);
  return match ? { commits: Number(match[1]), pid: Number(match[2]) } : 'damaged';
}

/**
 * Names this process as the holder in an existing seal, keeping its count: done as soon as the lock is taken, so that
 * a server refused meanwhile can name the holder (the count is checked, and written again, once the store is open).
 */
export function claimSeal(path: string): void {
  const seal = readSeal(path);
  if (typeof seal !== 'object') return;
  const fd = openSync(path, 'r+');
  try {
    writeSync(fd, line({ commits: seal.commits, pid: process.pid }), 0, 'utf8');
  } finally {
    closeSync(fd);
  }
}

/** The seal of an open store: rewritten in place after each commit. */
export class CommitSeal {
  readonly #fd: number;
  readonly #buffer = Buffer.alloc(LINE_LENGTH);
  #content: SealContent;

  constructor(path: string, content: SealContent) {
    this.#fd = openSync(path, existsSync(path) ? 'r+' : 'w+');
    this.#content = content;
    this.#write();
    fdatasyncSync(this.#fd);
  }

  /** A commit reached the database. */
  committed(commits: number): void {
    this.#content.commits = commits;
    try {
      this.#write();
    } catch {
      // The commit is in the database: a seal left behind it only weakens the next start's check, never the data.
    }
  }

  /** A clean stop: the holder's pid is cleared and the line forced to disk. */
  close(commits: number): void {
    this.#content = { commits, pid: 0 };
    try {
      this.#write();
      fdatasyncSync(this.#fd);
    } finally {
      closeSync(this.#fd);
    }
  }

  #write(): void {
    // One buffer, rewritten in place: the line is ASCII of fixed width.
    this.#buffer.write(line(this.#content), 0, 'latin1');
    writeSync(this.#fd, this.#buffer, 0, this.#buffer.length, 0);
  }
}
