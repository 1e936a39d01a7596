import type { StateJournal } from '../../core/state/change-tracker.js';
import { snapshotLines } from '../../core/state/lines.js';
import type { MockSnapshot, StateLine } from '../../core/state/model.js';
import type { StoredTenants } from '../../core/state/stored-tenants.js';
import { CommitSeal, type SealContent } from './commit-seal.js';
import { CommitWriter } from './commit.js';
import { asDamage, asDirectoryProblem, asOpenRefusal, StateDamageError, StateWriteError } from './errors.js';
import { databaseLost, FilesInPlace } from './files-in-place.js';
import { type StateFiles, stateFiles } from './files.js';
import { type ImportedJournal, importLegacy, verifyImport } from './legacy-import.js';
import { closeQuietly, type DatabaseSync } from './node-sqlite.js';
import { openDirectory } from './open.js';
import { migrate, schemaVersion } from './schema.js';
import { TenantReader } from './tenant-reader.js';
import { NO_WAL } from './wal-file.js';

/** When commits reach the disk (docs/standalone-server.md#durability). */
export type FsyncPolicy = 'interval' | 'always';

/** Where and how `startMockServer({ state })` keeps the mock's state (docs/standalone-server.md#durable-state). */
export interface StateStoreOptions {
  /** The state directory; created when missing. */
  path: string;
  /**
   * `interval` (default): every commit is written before its answer (a killed process loses nothing) and forced to
   * disk within about a second (SQLite's `synchronous=NORMAL` and a checkpoint every second); `always`: forced to disk
   * before each answer (`synchronous=FULL`).
   */
  fsync?: FsyncPolicy | undefined;
  /**
   * Called once when damage is found while the server runs (a record read on demand fails its checksum): the server
   * must stop. Default: nothing (the request that met it is answered 500).
   */
  onDamage?: ((error: StateDamageError) => void) | undefined;
  /**
   * The largest the database may grow, in bytes (SQLite's `max_page_count`): a commit that needs more is refused as on
   * a full disk (503, nothing applied). Default: no limit but the disk's.
   */
  maxBytes?: number | undefined;
}

/** What the store found when it opened its directory. */
export interface StoreSummary {
  /**
   * Whether the directory already held a state: at least one organization (fixtures are replayed into a directory
   * that holds none, as into a new one).
   */
  existing: boolean;
  /** Organizations and modes stored. */
  organizations: number;
  /** Objects, events and delivery records stored. */
  records: number;
  /** When the directory was in the journal format of earlier releases: what was imported from it. */
  imported?: ImportedJournal | undefined;
}

const CHECKPOINT_INTERVAL_MS = 1_000;
/**
 * SQLite checkpoints on its own once the log holds this many pages (its default, 1000, made a commit wait for a
 * checkpoint every few hundred writes); the timer above checkpoints every second before that.
 */
const AUTOCHECKPOINT_PAGES = 16_384;
/**
 * The most the write-ahead log keeps of its size once everything in it is checkpointed: a log that grew past it (a
 * burst of writes, a big import, a full disk on which no checkpoint could run) is cut back to nothing at the next
 * checkpoint, and SQLite cuts it back to this whenever it starts the log over (`journal_size_limit`).
 */
export const WAL_KEEP_BYTES = 1024 * 1024;

/**
 * The mock's durable state in one SQLite database (`--state <dir>`), through Node's built-in node:sqlite: WAL mode,
 * the commits of each batch of answers in one transaction committed before those answers (group commit),
 * organizations read on demand (this store keeps them all, `tenants`), one process per directory by an exclusive
 * lock, a start-up check that stops at any damage and changes nothing when it does (open.ts), and files kept in place
 * while it runs (docs/standalone-server.md#durable-state).
 */
export class SqliteStateStore implements StateJournal {
  readonly files: StateFiles;
  readonly summary: StoreSummary;
  readonly tenants: StoredTenants;
  readonly #db: DatabaseSync;
  readonly #writer: CommitWriter;
  readonly #reader: TenantReader;
  readonly #seal: CommitSeal;
  readonly #place: FilesInPlace;
  readonly #unlock: () => void;
  readonly #onDamage: (error: StateDamageError) => void;
  #timer: ReturnType<typeof setInterval> | undefined;
  #uncheckpointed = false;
  #closed = false;
  /** Why commits are refused for good (state.db was removed under the server), once it happened. */
  #lost: StateDamageError | undefined;

  private constructor(options: StateStoreOptions) {
    const files = stateFiles(options.path);
    this.files = files;
    this.#onDamage = options.onDamage ?? (() => undefined);
    const { db, unlock, legacy } = openDirectory(files);
    this.#db = db;
    try {
      db.exec('PRAGMA journal_mode = WAL');
      db.exec(`PRAGMA synchronous = ${options.fsync === 'always' ? 'FULL' : 'NORMAL'}`);
      db.exec(`PRAGMA journal_size_limit = ${WAL_KEEP_BYTES}`);
      db.exec(`PRAGMA wal_autocheckpoint = ${AUTOCHECKPOINT_PAGES}`);
      migrate(db, schemaVersion(db));
      if (options.maxBytes !== undefined) {
        const pageSize = Number(db.prepare('PRAGMA page_size').get()?.page_size ?? 4096);
        db.exec(`PRAGMA max_page_count = ${Math.max(1, Math.floor(options.maxBytes / pageSize))}`);
      }
      this.#writer = new CommitWriter(db);
      this.#reader = new TenantReader(db, files);
      this.#place = new FilesInPlace(files);
      this.#seal = new CommitSeal(files.seal, {
        commits: this.#writer.commits,
        pid: process.pid,
        wal: this.#place.walIdentity(),
      } satisfies SealContent);
      const imported = legacy ? importLegacy(db, files, legacy, (snapshot) => this.replace(snapshot)) : undefined;
      const totals = db.prepare('SELECT count(*) AS organizations, coalesce(sum(records), 0) AS records FROM tenants').get();
      const organizations = Number(totals?.organizations ?? 0);
      this.summary = {
        existing: organizations > 0 || imported !== undefined,
        organizations,
        records: Number(totals?.records ?? 0),
        imported,
      };
    } catch (error) {
      closeQuietly(db);
      unlock();
      throw asOpenRefusal(asDamage(error, files), files);
    }
    this.#unlock = unlock;
    this.tenants = this.#guardedReader();
    // Both policies: with `interval` this is what forces commits to disk; with `always` it keeps the log short. Each
    // tick also makes sure the files are where they were.
    this.#timer = setInterval(() => this.#tick(), CHECKPOINT_INTERVAL_MS);
    this.#timer.unref();
  }

  /** Opens (or creates) a state directory: locked, checked, and imported from the journal format if it is in it. */
  static open(options: StateStoreOptions): SqliteStateStore {
    try {
      return new SqliteStateStore(options);
    } catch (error) {
      throw asDirectoryProblem(error, stateFiles(options.path).dir);
    }
  }

  /**
   * Keeps one commit, in one transaction; throws StateWriteError (having kept nothing) when the database refuses it, or
   * when its files are no longer where they were.
   */
  commit(lines: StateLine[]): void {
    if (this.#closed) throw new Error(`The state store of ${this.files.dir} is closed.`);
    this.#keepFilesInPlace();
    try {
      this.#writer.apply(lines);
    } catch (error) {
      // Whatever the refused commit left in the log is checkpointed (and the log cut back) at the next tick.
      this.#uncheckpointed = true;
      // A write that finds the file damaged is refused like any other, and stops the server like damage found at start.
      const damage = asDamage((error as { cause?: unknown }).cause, this.files);
      if (damage instanceof StateDamageError) this.#onDamage(damage);
      throw error;
    }
    this.#seal.committed(this.#writer.commits, this.#place.walIdentity());
    this.#uncheckpointed = true;
  }

  /**
   * Group commit: a batch closes once the current turn of the event loop is over, so that every request whose bytes
   * arrived in it is committed in one transaction (each SQLite transaction writes the pages it touched and a commit
   * frame to the log, and the seal beside it, whatever it holds: a batch costs little more than one of its writes).
   */
  scheduleCommit(commit: () => void): void {
    setImmediate(commit);
  }

  /**
   * Replaces the whole state with a snapshot, in one commit, and reads it back to compare, organization by
   * organization: a difference empties the store again and throws.
   */
  replace(snapshot: MockSnapshot): void {
    this.commit([...snapshotLines(snapshot)]);
    try {
      verifyImport(this.#reader, this.files, snapshot);
    } catch (error) {
      this.commit([['reset']]);
      throw error;
    }
  }

  /** Copies every commit into the database file, forces it to disk, and releases the directory. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#timer) clearInterval(this.#timer);
    let emptied = false;
    try {
      this.#db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
      emptied = true;
    } catch {
      // A full disk can refuse the checkpoint: the log keeps the commits, and the next start reads them from it.
    }
    try {
      this.#seal.close(this.#writer.commits, emptied ? NO_WAL : this.#place.walIdentity());
    } finally {
      this.#place.close();
      closeQuietly(this.#db);
      this.#unlock();
    }
  }

  /** Every read of a tenant on demand reports the damage it meets (the server stops), as well as throwing it. */
  #guardedReader(): StoredTenants {
    const reader = this.#reader;
    const reported = <T>(read: () => T): T => {
      try {
        return read();
      } catch (error) {
        const damage = asDamage(error, this.files);
        if (damage instanceof StateDamageError) this.#onDamage(damage);
        throw damage;
      }
    };
    // Once closed, nothing is due any more (a mock not stopped before its store is closed finds nothing to wake).
    return {
      server: () => reader.server(),
      ownerOfKey: (digest) => reported(() => reader.ownerOfKey(digest)),
      read: (key) => reported(() => reader.read(key)),
      keys: () => reader.keys(),
      dueBy: (at, skip, limit) => (this.#closed ? [] : reported(() => reader.dueBy(at, skip, limit))),
      nextDue: (skip) => (this.#closed ? undefined : reported(() => reader.nextDue(skip))),
    };
  }

  /** Once a second: the files are checked, and the log checkpointed. */
  #tick(): void {
    if (this.#closed) return;
    try {
      this.#keepFilesInPlace();
    } catch {
      // state.db is gone: the server stops (reported by #keepFilesInPlace).
      return;
    }
    this.#checkpoint();
  }

  #checkpoint(): void {
    if (!this.#uncheckpointed) return;
    this.#uncheckpointed = false;
    try {
      const result = this.#db.prepare('PRAGMA wal_checkpoint(PASSIVE)').get();
      // Everything in the log is in the database now: a log grown past its bound is cut back to nothing.
      if (result?.log === result?.checkpointed && this.#place.walBytes() > WAL_KEEP_BYTES) {
        this.#db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
      }
    } catch {
      // The commits are in the log already; the next checkpoint copies them.
      this.#uncheckpointed = true;
    }
  }

  /**
   * The files are where the store opened them (files-in-place.ts), or made so: a seal removed is written back, a log
   * removed is made anew at its path (every commit it held copied into state.db first); a state.db removed or replaced
   * cannot be, since SQLite writes through its own descriptor: every commit is refused from then on (503), the state
   * the store holds is written back to its path when nothing else is there, and the server stops.
   */
  #keepFilesInPlace(): void {
    if (this.#lost) throw new StateWriteError(this.#lost.message);
    if (this.#place.databaseGone()) {
      this.#lost = databaseLost(this.#db, this.files, this.#writer.commits);
      this.#onDamage(this.#lost);
      throw new StateWriteError(this.#lost.message);
    }
    if (this.#place.walGone()) {
      this.#place.restartWal(this.#db);
      console.warn(`[cardrail-mock] ${this.files.wal} was removed while the server ran: made anew, nothing lost`);
    }
    if (this.#seal.writtenBack()) {
      console.warn(`[cardrail-mock] ${this.files.seal} was removed while the server ran: written back`);
    }
  }
}
