import { closeSync, existsSync, openSync, readdirSync, readFileSync, readSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { SnapshotBuilder } from '../../core/state/builder.js';
import { type MockSnapshot, STATE_FORMAT, STATE_VERSION, type StateLine } from '../../core/state/model.js';
import { StateDamageError } from './errors.js';

/**
 * The directory format of earlier releases (an append-only journal on node:fs): `state.jsonl` (a header line, then
 * one line per record), `journal.<n>.jsonl` (one commit per line), `tenants/*.jsonl` (organizations taken out of
 * memory) and `lock`. A directory in that format is imported into the database on its first start
 * (docs/standalone-server.md#from-the-journal-format); this reads it, refusing what it can tell is damaged.
 */
const BASE = 'state.jsonl';
const JOURNAL = /^journal\.(\d+)\.jsonl$/;
const TENANTS = 'tenants';
const LOCK = 'lock';

/** The lines of that format that the database's format no longer has. */
type LegacyLine =
  | StateLine
  | ['evicted', string, { organizationId: string; mode: string; ref: string }]
  | ['restored', string, string];

/** Whether a directory holds a state in the journal format. */
export function hasLegacyJournal(dir: string): boolean {
  return existsSync(dir) && readdirSync(dir).some((name) => name === BASE || JOURNAL.test(name));
}

/** Every file of the journal format in the directory (removed once their import is verified). */
function legacyFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter(
      (name) => name === BASE || name === TENANTS || name === LOCK || JOURNAL.test(name) || /^state\.jsonl\.\d+\.tmp$/.test(name),
    )
    .map((name) => join(dir, name));
}

export function removeLegacyFiles(dir: string): void {
  for (const path of legacyFiles(dir)) rmSync(path, { recursive: true, force: true });
}

/** The process id in the journal format's lock file, when it names one. */
export function legacyLockHolder(dir: string): number | undefined {
  const path = join(dir, LOCK);
  if (!existsSync(path)) return undefined;
  const holder = Number(readFileSync(path, 'utf8').trim());
  return Number.isInteger(holder) && holder > 0 ? holder : undefined;
}

/**
 * The state a journal-format directory holds, as a snapshot. A commit cut short by a crash (an incomplete last line
 * of the last journal) belonged to a request that got no answer and is left out; anything else unreadable, a journal
 * missing from the sequence, or a tenant file a line refers to that is gone, is damage naming the file.
 */
export function readLegacyJournal(dir: string): { snapshot: MockSnapshot; records: number; files: string[] } {
  const builder = new SnapshotBuilder();
  const away = new Map<string, string>();
  const loadTenant = (key: string, ref: string, from: string): void => {
    const path = join(dir, TENANTS, ref);
    if (!existsSync(path)) {
      throw new StateDamageError(path, `is missing (${from} says organization ${key} was kept there)`, restoreJournal);
    }
    builder.drop(key);
    forEachLine(path, (text, end, complete) => {
      builder.apply(parse(path, text, end, complete) as StateLine);
      return true;
    });
  };
  const apply = (line: LegacyLine, from: string): void => {
    if (line[0] === 'evicted') {
      builder.drop(line[1]);
      away.set(line[1], line[2].ref);
    } else if (line[0] === 'restored') {
      away.delete(line[1]);
      loadTenant(line[1], line[2], from);
    } else {
      if (line[0] === 'tenant') away.delete(line[1]);
      builder.apply(line);
    }
  };

  const names = readdirSync(dir);
  const base = join(dir, BASE);
  let first = 0;
  if (names.includes(BASE)) {
    const read: { journal?: number } = {};
    forEachLine(base, (text, end, complete) => {
      const value = parse(base, text, end, complete);
      if (read.journal === undefined) {
        const header = value as { format?: unknown; version?: unknown; journal?: unknown } | null;
        if (header?.format !== STATE_FORMAT || header.version !== STATE_VERSION || typeof header.journal !== 'number') {
          throw new StateDamageError(
            base,
            `does not start with a ${STATE_FORMAT} version ${STATE_VERSION} header`,
            restoreJournal,
          );
        }
        read.journal = header.journal;
        return true;
      }
      apply(value as LegacyLine, base);
      return true;
    });
    if (read.journal === undefined) throw new StateDamageError(base, 'is empty (it holds no header)', restoreJournal);
    first = read.journal;
  }
  const journals = names
    .map((name) => JOURNAL.exec(name))
    .filter((match): match is RegExpExecArray => match !== null)
    .map((match) => Number(match[1]))
    .filter((number) => number >= first)
    .sort((a, b) => a - b);
  if (!names.includes(BASE) && journals.length > 0 && journals[0] !== 0) {
    throw new StateDamageError(base, `is missing (journal.${journals[0]}.jsonl continues from it)`, restoreJournal);
  }
  for (const [index, number] of journals.entries()) {
    if (index > 0 && number !== (journals[index - 1] as number) + 1) {
      throw new StateDamageError(
        join(dir, `journal.${number - 1}.jsonl`),
        'is missing from the sequence of journals',
        restoreJournal,
      );
    }
    const path = join(dir, `journal.${number}.jsonl`);
    const last = index === journals.length - 1;
    const size = statSync(path).size;
    forEachLine(path, (text, end, complete) => {
      let lines: LegacyLine[];
      try {
        if (!complete) throw new Error('incomplete line');
        lines = JSON.parse(text) as LegacyLine[];
        if (!Array.isArray(lines)) throw new Error('not a commit');
      } catch (error) {
        // The last commit of the last journal, cut short by a crash: it was never answered.
        if (last && end === size) return false;
        throw new StateDamageError(path, `has an unreadable commit ending at byte ${end} (${String(error)})`, restoreJournal);
      }
      for (const line of lines) apply(line, path);
      return true;
    });
  }
  for (const [key, ref] of away) loadTenant(key, ref, 'the journal');
  return { snapshot: builder.toSnapshot(), records: builder.recordCount, files: legacyFiles(dir) };
}

const restoreJournal =
  'Restore the directory from a backup and start again (the journal is imported into state.db on the first start), ' +
  'or start on a new directory';

function parse(path: string, text: string, end: number, complete: boolean): unknown {
  try {
    if (!complete) throw new Error('incomplete line');
    return JSON.parse(text);
  } catch (error) {
    throw new StateDamageError(path, `has an unreadable line ending at byte ${end} (${String(error)})`, restoreJournal);
  }
}

/**
 * Reads a file line by line in 1 MiB chunks (files may exceed a string's limit); `onLine` gets the text, the byte
 * offset just past the line (and its newline) and whether the line ended with a newline; returning false stops.
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
