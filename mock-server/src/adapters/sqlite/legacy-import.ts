import { existsSync } from 'node:fs';
import { normalizedTenant } from '../../core/state/compare.js';
import type { MockSnapshot } from '../../core/state/model.js';
import { remedyFor, StateDamageError } from './errors.js';
import type { StateFiles } from './files.js';
import { readLegacyJournal, removeLegacyFiles } from './legacy-journal.js';
import type { DatabaseSync } from './node-sqlite.js';
import type { TenantReader } from './tenant-reader.js';

/** What was imported from journal files of an earlier release (StoreSummary.imported). */
export interface ImportedJournal {
  records: number;
  files: string[];
}

export type LegacyState = ReturnType<typeof readLegacyJournal>;

/**
 * The journal-format state of the directory, read now when no database exists yet (so that a damaged journal is
 * refused with nothing created), or later when one does (a database left by an import that was cut short).
 */
export function legacyState(files: StateFiles): () => LegacyState {
  if (existsSync(files.database)) return () => readLegacyJournal(files.dir);
  const read = readLegacyJournal(files.dir);
  return () => read;
}

/**
 * The journal format of earlier releases, imported into the new database in one commit, read back and compared
 * record by record; only then are the old files removed. A database left by an import that was cut short is
 * replaced; one whose import was verified (the old files' removal was cut short) is kept and the files removed.
 */
export function importLegacy(
  db: DatabaseSync,
  stateFiles: StateFiles,
  read: () => LegacyState,
  replace: (snapshot: MockSnapshot) => void,
): ImportedJournal | undefined {
  if (db.prepare("SELECT value FROM meta WHERE name = 'imported-journal'").get()) {
    removeLegacyFiles(stateFiles.dir);
    return undefined;
  }
  if (db.prepare('SELECT 1 AS found FROM tenants LIMIT 1').get()) {
    throw new StateDamageError(
      stateFiles.dir,
      `holds both a database (${stateFiles.database}) and journal files of an earlier release that were never imported into it`,
      'Move the journal files (state.jsonl, journal.*.jsonl, tenants/) to a directory of their own to import them there, or remove them to keep the database',
    );
  }
  const { snapshot, records, files } = read();
  replace(snapshot);
  db.prepare("INSERT OR REPLACE INTO meta (name, value) VALUES ('imported-journal', ?)").run(
    JSON.stringify({
      records,
      files: files.map((path) => path.slice(stateFiles.dir.length + 1)),
      at: new Date().toISOString(),
    }),
  );
  removeLegacyFiles(stateFiles.dir);
  return { records, files };
}

/** Reads every tenant of `snapshot` back and compares it: a difference is damage, and the old state stays. */
export function verifyImport(reader: TenantReader, stateFiles: StateFiles, snapshot: MockSnapshot): void {
  for (const expected of snapshot.tenants) {
    const key = `${expected.organizationId}:${expected.mode}`;
    const stored = reader.readChecked(key);
    const same =
      stored !== undefined && JSON.stringify(normalizedTenant(stored.tenant)) === JSON.stringify(normalizedTenant(expected));
    if (!same) {
      throw new StateDamageError(
        stateFiles.database,
        `read organization ${key} back differently from what was imported`,
        remedyFor(stateFiles.dir),
      );
    }
  }
}
