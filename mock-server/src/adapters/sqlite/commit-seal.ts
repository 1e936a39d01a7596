import { closeSync, existsSync, fdatasyncSync, fstatSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { type WalIdentity, walIdentityText } from './wal-file.js';

/**
 * state.db.commits: how many commits the database has taken, the process holding the directory, and the identity of
 * the write-ahead log that holds the commits since the last checkpoint, in one line of fixed width rewritten in place
 * after every commit (`commits 00000000000000000042 pid 0000012345 wal 000000031a2b3c4d5e6f7a8b`). SQLite cannot tell
 * a write-ahead log that was removed, emptied or overwritten from one that never existed, nor this database's log from
 * another copy's: it starts from what the database file holds, silently without the commits the log had, or copies
 * another copy's pages into it. The count and the log's identity kept outside the database are what make either
 * visible at the next start, before SQLite reads the log (docs/standalone-server.md#damage-is-never-silent). Rewriting a
 * few bytes in place needs no new disk block, so it works on a full disk too.
 */
export interface SealContent {
  commits: number;
  /** The process that holds (or last held) the directory; 0 after a clean stop. */
  pid: number;
  /**
   * The write-ahead log's identity after the last commit (NO_WAL when there was none); undefined in a seal written by
   * an earlier release, which recorded none.
   */
  wal: WalIdentity | undefined;
}

const PATTERN = /^commits (\d{20}) pid (\d{10})(?: wal ([0-9a-f]{8})([0-9a-f]{8})([0-9a-f]{8}))?\n$/;

function line(content: SealContent): string {
  const head = `commits ${String(content.commits).padStart(20, '0')} pid ${String(content.pid).padStart(10, '0')}`;
  // A seal of an earlier release keeps its own (shorter) form until a commit records the log's identity.
  return content.wal === undefined ? `${head}\n` : `${head} wal ${walIdentityText(content.wal)}\n`;
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
  if (!match) return 'damaged';
  const [, commits, pid, checkpoint, salt1, salt2] = match;
  const wal =
    checkpoint === undefined
      ? undefined
      : {
          checkpoint: Number.parseInt(checkpoint, 16),
          salt1: Number.parseInt(salt1 ?? '', 16),
          salt2: Number.parseInt(salt2 ?? '', 16),
        };
  return { commits: Number(commits), pid: Number(pid), wal };
}

/**
 * Names this process as the holder in an existing seal, keeping the rest: done as soon as the lock is taken and the
 * directory's checks passed, so that a server refused meanwhile can name the holder.
 */
export function claimSeal(path: string): void {
  const seal = readSeal(path);
  if (typeof seal !== 'object') return;
  const fd = openSync(path, 'r+');
  try {
    writeSync(fd, line({ ...seal, pid: process.pid }), 0, 'utf8');
  } finally {
    closeSync(fd);
  }
}

/**
 * The seal of an open store: rewritten in place after each commit. Removed (or replaced) while the server runs, it is
 * written back at the next commit, at the next check of the files (every second) or at the clean stop, whichever
 * comes first: the commits it counts are in the database, and only the count beside them was lost.
 */
export class CommitSeal {
  readonly #path: string;
  #fd: number;
  #content: SealContent;

  constructor(path: string, content: SealContent) {
    this.#path = path;
    this.#fd = openSync(path, existsSync(path) ? 'r+' : 'w+');
    this.#content = content;
    this.#write();
    fdatasyncSync(this.#fd);
  }

  /** A commit reached the database, whose log now has this identity. */
  committed(commits: number, wal: WalIdentity): void {
    this.#content.commits = commits;
    this.#content.wal = wal;
    try {
      this.#write();
    } catch {
      // The commit is in the database: a seal left behind it only weakens the next start's check, never the data.
    }
  }

  /**
   * Writes the seal back when its file was removed or replaced (its descriptor names a file no path leads to any
   * more): says so, so that the server can tell. One fstat, and a stat of the path only when the file is gone.
   */
  writtenBack(): boolean {
    if (fstatSync(this.#fd).nlink > 0) return false;
    // Written whole beside it, then renamed into place: a process killed meanwhile leaves no empty or partial seal.
    const gone = this.#fd;
    const next = `${this.#path}.new`;
    this.#fd = openSync(next, 'w+');
    closeSync(gone);
    this.#write();
    fdatasyncSync(this.#fd);
    renameSync(next, this.#path);
    return true;
  }

  /**
   * A clean stop: the holder's pid is cleared, the log's identity recorded (NO_WAL once a checkpoint emptied it: the
   * database then holds every commit), and the line forced to disk.
   */
  close(commits: number, wal: WalIdentity): void {
    this.#content = { commits, pid: 0, wal };
    try {
      this.writtenBack();
      this.#write();
      fdatasyncSync(this.#fd);
    } finally {
      closeSync(this.#fd);
    }
  }

  #write(): void {
    writeSync(this.#fd, line(this.#content), 0, 'latin1');
  }
}
