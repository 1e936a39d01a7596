import { closeSync, existsSync, openSync, writeSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { StateDamageError } from '../adapters/sqlite/errors.js';
import { stateFiles } from '../adapters/sqlite/files.js';
import { inspectState } from '../adapters/sqlite/inspect.js';
import { databaseClass } from '../adapters/sqlite/node-sqlite.js';
import { hasLegacyJournal, readLegacyJournal } from '../adapters/sqlite/legacy-journal.js';
import { exportSnapshot, readSnapshotFile } from '../adapters/sqlite/snapshot-io.js';
import { SqliteStateStore } from '../adapters/sqlite/store.js';
import { isDatabaseUrl } from '../adapters/postgres/url.js';
import { plural } from './plural.js';

const STATE_USAGE = `Usage: cardrail-mock state <command> <dir|url> [options]

Inspects, exports and imports a --state directory (not while a server runs on it), or a PostgreSQL state given by its
postgres:// URL (check and export while instances serve it, in one read-only snapshot; import only while none does).

Commands:
  check <dir>                 check everything: SQLite's integrity check, the commit count, every organization's
                              record count and every record's checksum; exit code 1 when anything is wrong
  export <dir> [--out <file>] write the state as snapshot() JSON (to standard output by default)
         [--force]            export what can be read from a damaged state, naming what is left out
  import <dir> <file>         write a snapshot() JSON file (an export, or mock.snapshot()) into a new directory`;

/** What the command prints: its report on `out`, problems on `err`. */
export interface StateCommandIo {
  out(text: string): void;
  err(text: string): void;
}

/** `cardrail-mock state ...`: resolves with the exit code. */
export async function runStateCommand(argv: string[], io: StateCommandIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    options: {
      out: { type: 'string' },
      force: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
    allowPositionals: true,
  });
  const [command, dir, file] = positionals;
  if (values.help || command === undefined) {
    io.out(`${STATE_USAGE}\n`);
    return values.help ? 0 : 1;
  }
  if (dir === undefined) throw new Error(`cardrail-mock state ${command} needs the state directory or database URL`);
  if (isDatabaseUrl(dir)) {
    const { runDatabaseStateCommand } = await import('./state-database-command.js');
    return runDatabaseStateCommand(command, dir, file, values, io);
  }
  // Every command reads or writes the database: refused up front on a Node.js without node:sqlite.
  databaseClass();
  switch (command) {
    case 'check':
      return check(dir, io);
    case 'export':
      return exportState(dir, io, values.out, values.force);
    case 'import':
      if (file === undefined) throw new Error('cardrail-mock state import needs the directory and the snapshot file');
      return importState(dir, file, io);
    default:
      throw new Error(`unknown state command ${command}: check, export or import`);
  }
}

function check(dir: string, io: StateCommandIo): number {
  if (hasLegacyJournal(dir) && !existsSync(stateFiles(dir).database)) {
    const { records, files } = readLegacyJournal(dir);
    io.out(
      `${dir}: a state in the journal format of an earlier release (${plural(files.length, 'file')}), readable: ${plural(records, 'record')}. ` +
        'It is imported into state.db on the next start.\n',
    );
    return 0;
  }
  const state = inspectState(dir, { thorough: true });
  try {
    const { facts } = state;
    const summary = `${plural(facts.organizations, 'organization')}, ${plural(facts.records, 'record')}, ${plural(facts.idempotencyKeys, 'idempotency key')}, ${plural(facts.commits, 'commit')}, ${(facts.bytes / 1024 / 1024).toFixed(1)} MB`;
    if (state.problems.length === 0) {
      io.out(`${state.files.database}: ok (${summary})\n`);
      return 0;
    }
    io.err(`${state.files.database}: ${plural(state.problems.length, 'problem')} (${summary})\n`);
    for (const problem of state.problems) io.err(`- ${problem}\n`);
    return 1;
  } finally {
    state.close();
  }
}

function exportState(dir: string, io: StateCommandIo, out: string | undefined, force: boolean): number {
  const fd = out === undefined ? undefined : openSync(out, 'w');
  const write = fd === undefined ? io.out : (chunk: string) => writeSync(fd, chunk);
  try {
    if (hasLegacyJournal(dir) && !existsSync(stateFiles(dir).database)) {
      const { snapshot } = readLegacyJournal(dir);
      write(`${JSON.stringify(snapshot)}\n`);
      return 0;
    }
    const state = inspectState(dir, { thorough: false });
    try {
      if (state.problems.length > 0 && !force) {
        throw new StateDamageError(
          state.files.database,
          `cannot be exported as it is:\n- ${state.problems.join('\n- ')}\n`,
          '`--force` exports what can be read, leaving out (and naming) what cannot',
        );
      }
      for (const problem of state.problems) io.err(`warning: ${problem}\n`);
      let skipped = 0;
      const { organizations, records } = exportSnapshot(state, write, (problem) => {
        skipped++;
        if (!force) throw new StateDamageError(state.files.database, problem, '`--force` exports the rest');
        io.err(`left out: ${problem}\n`);
      });
      io.err(
        `Exported ${plural(organizations, 'organization')} and ${plural(records, 'record')}${skipped > 0 ? `, leaving out ${skipped} damaged` : ''}\n`,
      );
      return 0;
    } finally {
      state.close();
    }
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

async function importState(dir: string, file: string, io: StateCommandIo): Promise<number> {
  const snapshot = readSnapshotFile(file);
  if (hasLegacyJournal(dir)) throw new Error(`${dir} holds a state in the journal format already: import into a new directory`);
  const store = SqliteStateStore.open({ path: dir });
  try {
    if (store.summary.existing && store.summary.organizations > 0) {
      throw new Error(
        `${dir} holds a state already (${plural(store.summary.organizations, 'organization')}): import into a new directory`,
      );
    }
    store.replace(snapshot);
  } finally {
    await store.close();
  }
  const records = snapshot.tenants.reduce(
    (sum, tenant) => sum + Object.values(tenant.collections).reduce((count, entries) => count + entries.length, 0),
    0,
  );
  io.out(
    `Imported ${plural(snapshot.tenants.length, 'organization')} and ${plural(records, 'record')} into ${store.files.database} (read back and verified)\n`,
  );
  return 0;
}
