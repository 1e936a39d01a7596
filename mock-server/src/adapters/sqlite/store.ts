import { mkdirSync } from 'node:fs';
import type { StateJournal } from '../../core/state/change-tracker.js';
import { snapshotLines } from '../../core/state/lines.js';
import type { MockSnapshot, StateLine } from '../../core/state/model.js';
import type { StoredTenants } from '../../core/state/stored-tenants.js';
import { checkDatabase, checkFilesBeforeOpen, walState } from './check.js';
import { claimSeal, CommitSeal, readSeal, type SealContent } from './commit-seal.js';
import { CommitWriter } from './commit.js';
import { asDamage, asDirectoryProblem, restoreDatabase, StateDamageError, StateInUseError } from './errors.js';
import { type StateFiles, stateFiles } from './files.js';
import { type ImportedJournal, importLegacy, legacyState, verifyImport } from './legacy-import.js';
import { hasLegacyJournal, legacyLockHolder } from './legacy-journal.js';
import { isAlive, lockedDatabase } from './lock.js';
import { closeQuietly, databaseClass, type DatabaseSync } from './node-sqlite.js';
import { hasTables, migrate, schemaVersion } from './schema.js';
import { TenantReader } from './tenant-reader.js';

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
/** An oversized write-ahead log (after a big import or reset) is cut back to this once checkpointed. */
const WAL_SIZE_LIMIT = 64 * 1024 * 1024;

/**
 * The mock's durable state in one SQLite database (`--state <dir>`), through Node's built-in node:sqlite: WAL mode,
 * one transaction per commit committed before the answer, organizations read on demand (this store keeps them all,
 * `tenants`), one process per directory by an exclusive lock, and a start-up check that stops at any damage
 * (docs/standalone-server.md#durable-state).
 */
export class SqliteStateStore implements StateJournal {
  readonly files: StateFiles;
  readonly summary: StoreSummary;
  readonly tenants: StoredTenants;
  readonly #db: DatabaseSync;
  readonly #writer: CommitWriter;
  readonly #reader: TenantReader;
  readonly #seal: CommitSeal;
  readonly #unlock: () => void;
  readonly #onDamage: (error: StateDamageError) => void;
  #timer: ReturnType<typeof setInterval> | undefined;
  #uncheckpointed = false;
  #closed = false;

  private constructor(options: StateStoreOptions) {
    const files = stateFiles(options.path);
    this.files = files;
    this.#onDamage = options.onDamage ?? (() => undefined);
    mkdirSync(files.dir, { recursive: true });
    const holder = legacyLockHolder(files.dir);
    if (holder !== undefined && holder !== process.pid && isAlive(holder)) {
      throw new StateInUseError(
        `The state directory ${files.dir} is in use by process ${holder} (an earlier cardrail-mock's lock file).`,
        holder,
      );
    }
    // A journal-format directory is read (and refused if damaged) before anything is created beside it.
    const legacy = hasLegacyJournal(files.dir) ? legacyState(files) : undefined;
    const seal = readSeal(files.seal);
    checkFilesBeforeOpen(files, seal);
    const wal = walState(files);
    const DatabaseSync = databaseClass();
    const { db, unlock } = lockedDatabase(DatabaseSync, files);
    this.#db = db;
    try {
      // The seal is read again now that this process holds the lock: another process may have written it meanwhile.
      const sealNow = readSeal(files.seal);
      claimSeal(files.seal);
      db.exec('PRAGMA journal_mode = WAL');
      db.exec(`PRAGMA synchronous = ${options.fsync === 'always' ? 'FULL' : 'NORMAL'}`);
      db.exec(`PRAGMA journal_size_limit = ${WAL_SIZE_LIMIT}`);
      db.exec(`PRAGMA wal_autocheckpoint = ${AUTOCHECKPOINT_PAGES}`);
      const version = schemaVersion(db);
      const fresh = version === 0 && !hasTables(db);
      if (fresh && typeof sealNow === 'object' && sealNow.commits > 0) {
        throw new StateDamageError(
          files.database,
          `holds no state, yet ${sealNow.commits} commits were made to it (${files.seal}): it was emptied or replaced`,
          restoreDatabase(files.dir),
        );
      }
      if (!fresh) {
        const [problem] = checkDatabase(db, files, sealNow, { wal });
        if (problem) throw problem;
      }
      migrate(db, version);
      if (options.maxBytes !== undefined) {
        const pageSize = Number(db.prepare('PRAGMA page_size').get()?.page_size ?? 4096);
        db.exec(`PRAGMA max_page_count = ${Math.max(1, Math.floor(options.maxBytes / pageSize))}`);
      }
      this.#writer = new CommitWriter(db);
      this.#reader = new TenantReader(db, files);
      this.#seal = new CommitSeal(files.seal, { commits: this.#writer.commits, pid: process.pid } satisfies SealContent);
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
      throw asDamage(error, files);
    }
    this.#unlock = unlock;
    this.tenants = this.#guardedReader();
    // Both policies: with `interval` this is what forces commits to disk; with `always` it keeps the log short.
    this.#timer = setInterval(() => this.#checkpoint(), CHECKPOINT_INTERVAL_MS);
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

  /** Keeps one commit, in one transaction; throws StateWriteError (having kept nothing) when the database refuses it. */
  commit(lines: StateLine[]): void {
    if (this.#closed) throw new Error(`The state store of ${this.files.dir} is closed.`);
    try {
      this.#writer.apply(lines);
    } catch (error) {
      // A write that finds the file damaged is refused like any other, and stops the server like damage found at start.
      const damage = asDamage((error as { cause?: unknown }).cause, this.files);
      if (damage instanceof StateDamageError) this.#onDamage(damage);
      throw error;
    }
    this.#seal.committed(this.#writer.commits);
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
    try {
      this.#db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    } catch {
      // A full disk can refuse the checkpoint: the log keeps the commits, and the next start reads them from it.
    }
    try {
      this.#seal.close(this.#writer.commits);
    } finally {
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

  #checkpoint(): void {
    if (!this.#uncheckpointed || this.#closed) return;
    this.#uncheckpointed = false;
    try {
      this.#db.exec('PRAGMA wal_checkpoint(PASSIVE)');
    } catch {
      // The commits are in the log already; the next checkpoint copies them.
      this.#uncheckpointed = true;
    }
  }
}
