import { randomBytes } from 'node:crypto';
import {
  closeSync,
  existsSync,
  fdatasync,
  fdatasyncSync,
  fstatSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { join, resolve } from 'node:path';
import { SnapshotBuilder } from '../core/state/builder.js';
import type { JournalAccess, StateJournal } from '../core/state/change-tracker.js';
import { STATE_FORMAT, STATE_VERSION, type MockSnapshot, type StateLine } from '../core/state/model.js';

/** When appended commits are forced to the disk (docs/standalone-server.md#durability). */
export type FsyncPolicy = 'interval' | 'always';

/** Where and how `startMockServer({ state })` keeps the mock's state on disk (docs/standalone-server.md#durable-state). */
export interface StateStoreOptions {
  /** The state directory; created when missing. */
  path: string;
  /** `interval` (default): data is written before each answer and forced to disk every second; `always`: forced before each answer. */
  fsync?: FsyncPolicy | undefined;
  /** Called once when a write fails: the store accepts nothing more (the server must stop). */
  onFatal?: ((error: Error) => void) | undefined;
}

const BASE = 'state.jsonl';
const JOURNAL = /^journal\.(\d+)\.jsonl$/;
const TENANTS = 'tenants';
const LOCK = 'lock';
const FSYNC_INTERVAL_MS = 1_000;
/** Directories opened by this process (its own pid in a lock file is then no proof that the lock is stale). */
const openDirectories = new Set<string>();
/** A journal longer than this (or than the compacted state, whichever is larger) is folded into a new state file. */
const COMPACT_AT_BYTES = 64 * 1024 * 1024;
/** Lines written per turn of the event loop while compacting, so requests keep being answered meanwhile. */
const COMPACT_SLICE = 2_000;

interface BaseHeader {
  format: typeof STATE_FORMAT;
  version: typeof STATE_VERSION;
  /** The first journal whose commits apply after this file. */
  journal: number;
}

/**
 * The mock's durable state on node:fs (`--state <dir>`): an append-only journal of commits (one JSON line each:
 * the records a request changed, written whole) and a compacted state file, plus one file per organization taken
 * out of memory. A commit is written with a synchronous write before the answer leaves, so a process that is
 * killed loses nothing it answered; when it reaches the disk depends on the fsync policy. The journal is folded
 * into a new state file in the background once it grows past the state file (a fuzzy checkpoint: the commits made
 * meanwhile go to the next journal and are applied after it on start).
 */
export class FileStateStore implements StateJournal {
  readonly #dir: string;
  readonly #fsync: FsyncPolicy;
  readonly #onFatal: (error: Error) => void;
  #access: JournalAccess | undefined;
  /** The state read at start, put back when the mock attaches (undefined: the directory was empty). */
  #initial: MockSnapshot | undefined;
  #journal: number;
  #fd: number;
  #journalBytes = 0;
  #baseBytes = 0;
  #unsynced = false;
  #timer: ReturnType<typeof setInterval> | undefined;
  #broken: Error | undefined;
  #closed = false;
  #compacting: Promise<void> | undefined;
  /** Tenant files named by commits since the last compaction started (they must outlive it). */
  #recentRefs = new Set<string>();
  /** Records read at start, for the start-up message. */
  readonly restoredRecords: number;

  private constructor(options: StateStoreOptions) {
    this.#dir = resolve(options.path);
    this.#fsync = options.fsync ?? 'interval';
    this.#onFatal = options.onFatal ?? (() => undefined);
    mkdirSync(join(this.#dir, TENANTS), { recursive: true });
    this.#lock();
    openDirectories.add(this.#dir);
    try {
      const { snapshot, journal, records } = this.#read();
      this.#initial = snapshot;
      this.restored = snapshot !== undefined;
      this.restoredRecords = records;
      this.#journal = journal;
      this.#fd = openSync(this.#journalPath(journal), 'a');
      this.#journalBytes = fstatSync(this.#fd).size;
    } catch (error) {
      rmSync(join(this.#dir, LOCK), { force: true });
      openDirectories.delete(this.#dir);
      throw error;
    }
    if (this.#fsync === 'interval') {
      this.#timer = setInterval(() => this.#syncSoon(), FSYNC_INTERVAL_MS);
      this.#timer.unref();
    }
  }

  /** Opens (or creates) a state directory and reads its state; it is put back when a mock attaches. */
  static open(options: StateStoreOptions): FileStateStore {
    return new FileStateStore(options);
  }

  /** Whether the directory held a state to restore. */
  readonly restored: boolean;

  attach(access: JournalAccess): void {
    this.#access = access;
    if (this.#initial) access.restore(this.#initial);
    this.#initial = undefined;
    // A journal left by the last run is folded in soon, so the next start reads one file.
    if (this.#journalBytes > 0) setImmediate(() => void this.compact().catch(() => undefined));
  }

  commit(lines: StateLine[]): void {
    if (this.#closed) return;
    if (this.#broken) throw this.#broken;
    const text = `${JSON.stringify(lines)}\n`;
    try {
      this.#journalBytes += writeSync(this.#fd, text);
      if (this.#fsync === 'always') fdatasyncSync(this.#fd);
      else this.#unsynced = true;
    } catch (cause) {
      this.#fail(cause);
    }
    for (const line of lines) if (line[0] === 'evicted' || line[0] === 'restored') this.#recentRefs.add(refOf(line));
    if (!this.#compacting && this.#journalBytes > Math.max(COMPACT_AT_BYTES, this.#baseBytes)) {
      setImmediate(() => void this.compact().catch(() => undefined));
    }
  }

  evict(tenantKey: string, lines: StateLine[]): string {
    if (this.#broken) throw this.#broken;
    const ref = `${tenantKey.replace(/[^A-Za-z0-9_-]/g, '_')}.${Date.now().toString(36)}${randomBytes(4).toString('hex')}.jsonl`;
    try {
      writeDurably(join(this.#dir, TENANTS, ref), `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);
    } catch (cause) {
      this.#fail(cause);
    }
    this.#recentRefs.add(ref);
    return ref;
  }

  load(ref: string): StateLine[] {
    const lines: StateLine[] = [];
    readLines(join(this.#dir, TENANTS, ref), (text) => lines.push(JSON.parse(text) as StateLine));
    return lines;
  }

  /**
   * Folds the journal into a new state file: later commits go to a new journal at once, the state is written in
   * slices between requests, then the new file replaces the old one and the journals and tenant files it covers
   * are removed.
   */
  compact(): Promise<void> {
    this.#compacting ??= this.#compact().finally(() => {
      this.#compacting = undefined;
    });
    return this.#compacting;
  }

  /** Writes what is pending, forces it to disk and releases the directory. */
  async close(): Promise<void> {
    if (this.#closed) return;
    await this.#compacting?.catch(() => undefined);
    if (!this.#broken) this.#access?.commit();
    this.#closed = true;
    if (this.#timer) clearInterval(this.#timer);
    try {
      if (!this.#broken) fdatasyncSync(this.#fd);
    } finally {
      closeSync(this.#fd);
      rmSync(join(this.#dir, LOCK), { force: true });
      openDirectories.delete(this.#dir);
    }
  }

  async #compact(): Promise<void> {
    const access = this.#access;
    if (!access || this.#closed || this.#broken) return;
    const next = this.#journal + 1;
    // From here on commits go to the next journal; the state written below may include some of them (a put is
    // whole and a delete of an absent record does nothing, so applying them again after it changes nothing).
    const previous = this.#fd;
    this.#fd = openSync(this.#journalPath(next), 'a');
    this.#journal = next;
    this.#journalBytes = 0;
    fdatasyncSync(previous);
    closeSync(previous);
    this.#recentRefs = new Set();
    const keep = new Set<string>();

    const temporary = join(this.#dir, `${BASE}.${next}.tmp`);
    const fd = openSync(temporary, 'w');
    let bytes = 0;
    try {
      const header: BaseHeader = { format: STATE_FORMAT, version: STATE_VERSION, journal: next };
      bytes += writeSync(fd, `${JSON.stringify(header)}\n`);
      let slice: string[] = [];
      for (const line of access.lines()) {
        if (line[0] === 'evicted') keep.add(line[2].ref);
        slice.push(JSON.stringify(line));
        if (slice.length >= COMPACT_SLICE) {
          bytes += writeSync(fd, `${slice.join('\n')}\n`);
          slice = [];
          await new Promise((resolve) => setImmediate(resolve));
          if (this.#closed) return;
        }
      }
      if (slice.length > 0) bytes += writeSync(fd, `${slice.join('\n')}\n`);
      fdatasyncSync(fd);
    } finally {
      closeSync(fd);
    }
    if (this.#closed) return;
    renameSync(temporary, join(this.#dir, BASE));
    syncDirectory(this.#dir);
    this.#baseBytes = bytes;
    for (const name of readdirSync(this.#dir)) {
      const match = JOURNAL.exec(name);
      if (match && Number(match[1]) < next) unlinkSync(join(this.#dir, name));
    }
    for (const ref of this.#recentRefs) keep.add(ref);
    for (const name of readdirSync(join(this.#dir, TENANTS))) if (!keep.has(name)) unlinkSync(join(this.#dir, TENANTS, name));
  }

  /** Reads the state file, then every journal after it; a commit cut short by a crash (the last line) is dropped. */
  #read(): { snapshot: MockSnapshot | undefined; journal: number; records: number } {
    const builder = new SnapshotBuilder((ref) => this.load(ref));
    let first = 0;
    let found = false;
    const base = join(this.#dir, BASE);
    if (existsSync(base)) {
      found = true;
      let header: BaseHeader | undefined;
      this.#baseBytes = readLines(base, (text) => {
        if (header === undefined) {
          header = JSON.parse(text) as BaseHeader;
          if (header.format !== STATE_FORMAT || header.version !== STATE_VERSION) {
            throw new Error(`${base} is not a ${STATE_FORMAT} version ${STATE_VERSION} file.`);
          }
          return;
        }
        builder.apply(JSON.parse(text) as StateLine);
      });
      first = header?.journal ?? 0;
    }
    const journals = readdirSync(this.#dir)
      .map((name) => JOURNAL.exec(name))
      .filter((match): match is RegExpExecArray => match !== null)
      .map((match) => Number(match[1]))
      .filter((number) => number >= first)
      .sort((a, b) => a - b);
    for (const [index, number] of journals.entries()) {
      const path = this.#journalPath(number);
      const last = index === journals.length - 1;
      const good = readCommits(path, last, (lines) => {
        for (const line of lines) builder.apply(line);
      });
      found ||= good > 0;
    }
    const snapshot = builder.toSnapshot();
    return { snapshot: found ? snapshot : undefined, journal: journals.at(-1) ?? first, records: builder.recordCount };
  }

  #journalPath(number: number): string {
    return join(this.#dir, `journal.${number}.jsonl`);
  }

  #syncSoon(): void {
    if (!this.#unsynced || this.#closed || this.#broken) return;
    this.#unsynced = false;
    const fd = this.#fd;
    fdatasync(fd, (error) => {
      // A journal closed meanwhile (compaction, shutdown) was synced by whoever closed it.
      if (error && !this.#closed && fd === this.#fd) {
        try {
          this.#fail(error);
        } catch {
          // Reported through onFatal.
        }
      }
    });
  }

  #fail(cause: unknown): never {
    const error = new Error(`cardrail-mock: the state in ${this.#dir} could not be written: ${String(cause)}`);
    if (!this.#broken) {
      this.#broken = error;
      this.#onFatal(error);
    }
    throw error;
  }

  /** One process per directory: a lock file with the holder's pid, taken over when that process is gone. */
  #lock(): void {
    if (openDirectories.has(this.#dir)) throw new Error(`The state directory ${this.#dir} is already open in this process.`);
    const path = join(this.#dir, LOCK);
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        writeFileSync(path, String(process.pid), { flag: 'wx' });
        return;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        const holder = Number(readFileSync(path, 'utf8'));
        if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && isAlive(holder)) {
          throw new Error(`The state directory ${this.#dir} is in use by process ${holder}.`);
        }
        rmSync(path, { force: true });
      }
    }
    throw new Error(`Could not lock the state directory ${this.#dir}.`);
  }
}

function refOf(line: StateLine): string {
  if (line[0] === 'evicted') return line[2].ref;
  if (line[0] === 'restored') return line[2];
  return '';
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  // A killed process nobody reaped yet (a container without an init) still answers signal 0: a zombie holds nothing.
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return true;
  }
}

/** Writes a whole file so that it is either there complete or not at all: a temporary file, fsync, rename. */
function writeDurably(path: string, text: string): void {
  const temporary = `${path}.tmp`;
  const fd = openSync(temporary, 'w');
  try {
    writeSync(fd, text);
    fdatasyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temporary, path);
}

function syncDirectory(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fdatasyncSync(fd);
  } catch {
    // Not every file system syncs a directory; the rename is still atomic.
  } finally {
    closeSync(fd);
  }
}

/** Calls `onLine` with each non-empty line of a file, reading it in chunks (files may exceed a string's limit). Returns its size. */
function readLines(path: string, onLine: (text: string) => void): number {
  forEachLine(path, (text) => {
    onLine(text);
    return true;
  });
  return fstatSize(path);
}

/**
 * Applies each commit of a journal. In the last journal, a final line that is incomplete or not JSON is a commit
 * cut short by a crash: nobody got its answer, so it is dropped and the file truncated there. Anywhere else it is
 * corruption. Returns the number of commits read.
 */
function readCommits(path: string, last: boolean, onCommit: (lines: StateLine[]) => void): number {
  let commits = 0;
  let goodBytes = 0;
  let torn = false;
  forEachLine(path, (text, end, complete) => {
    let lines: StateLine[];
    try {
      if (!complete) throw new Error('incomplete line');
      lines = JSON.parse(text) as StateLine[];
    } catch (error) {
      if (last && end === fstatSize(path)) {
        torn = true;
        return false;
      }
      throw new Error(`${path}: unreadable commit ending at byte ${end} (${String(error)})`);
    }
    onCommit(lines);
    commits++;
    goodBytes = end;
    return true;
  });
  if (torn) {
    const fd = openSync(path, 'r+');
    try {
      ftruncateSync(fd, goodBytes);
    } finally {
      closeSync(fd);
    }
  }
  return commits;
}

function fstatSize(path: string): number {
  const fd = openSync(path, 'r');
  try {
    return fstatSync(fd).size;
  } finally {
    closeSync(fd);
  }
}

/**
 * Reads a file line by line in 1 MiB chunks; `onLine` gets the text, the byte offset just past the line (and its
 * newline) and whether the line ended with a newline; returning false stops.
 */
function forEachLine(path: string, onLine: (text: string, end: number, complete: boolean) => boolean): void {
  const fd = openSync(path, 'r');
  try {
    const chunk = Buffer.alloc(1024 * 1024);
    let carry: Buffer = Buffer.alloc(0);
    let offset = 0;
    for (;;) {
      const read = readSync(fd, chunk, 0, chunk.length, null);
      if (read === 0) break;
      let data = carry.length > 0 ? Buffer.concat([carry, chunk.subarray(0, read)]) : chunk.subarray(0, read);
      let start = 0;
      for (let newline = data.indexOf(10, start); newline !== -1; newline = data.indexOf(10, start)) {
        const end = offset + newline + 1;
        if (newline > start && !onLine(data.toString('utf8', start, newline), end, true)) return;
        start = newline + 1;
      }
      offset += start;
      data = data.subarray(start);
      carry = Buffer.from(data);
    }
    if (carry.length > 0) onLine(carry.toString('utf8'), offset + carry.length, false);
  } finally {
    closeSync(fd);
  }
}
