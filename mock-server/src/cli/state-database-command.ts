import { closeSync, openSync, writeSync } from 'node:fs';
import type { PgStateStore } from '../adapters/postgres/store.js';
import { readSnapshotFile } from '../adapters/sqlite/snapshot-io.js';
import type { MockSnapshot } from '../core/state/model.js';
import { plural } from './plural.js';

/** What the command prints: its report on `out`, problems on `err` (as `state` of a directory). */
interface StateCommandIo {
  out(text: string): void;
  err(text: string): void;
}

/** `state check|export|import` of a PostgreSQL state (a `postgres://` URL in place of the directory). */
export async function runDatabaseStateCommand(
  command: string,
  url: string,
  file: string | undefined,
  options: { out?: string | undefined; force: boolean },
  io: StateCommandIo,
): Promise<number> {
  if (options.force) throw new Error('--force applies to a state directory; `state check` names what is damaged in a database');
  if (command === 'import' && file === undefined)
    throw new Error('cardrail-mock state import needs the database URL and the snapshot file');
  if (!['check', 'export', 'import'].includes(command))
    throw new Error(`unknown state command ${command}: check, export or import`);
  // Read before connecting: a file that is not a snapshot is refused without touching the database.
  const snapshot = file === undefined ? undefined : readSnapshotFile(file);
  const { PgStateStore } = await import('../adapters/postgres/store.js');
  const store = await PgStateStore.open({ url, readOnly: command !== 'import', register: false, poolSize: 2 });
  try {
    if (command === 'check') return await check(store, io);
    if (command === 'export') return await exportState(store, io, options.out);
    return await importState(store, snapshot as MockSnapshot, io);
  } finally {
    await store.close();
  }
}

async function check(store: PgStateStore, io: StateCommandIo): Promise<number> {
  const { facts, problems } = await store.inspect();
  const summary = `${plural(facts.organizations, 'organization')}, ${plural(facts.records, 'record')}, ${plural(facts.idempotencyKeys, 'idempotency key')}, ${(facts.bytes / 1024 / 1024).toFixed(1)} MB`;
  if (problems.length === 0) {
    io.out(`${store.address.shown}: ok (${summary})\n`);
    return 0;
  }
  io.err(`${store.address.shown}: ${plural(problems.length, 'problem')} (${summary})\n`);
  for (const problem of problems) io.err(`- ${problem}\n`);
  return 1;
}

async function exportState(store: PgStateStore, io: StateCommandIo, out: string | undefined): Promise<number> {
  // One repeatable-read snapshot of the database: consistent while instances serve it.
  const snapshot = await store.snapshot();
  const text = `${JSON.stringify(snapshot)}\n`;
  if (out === undefined) io.out(text);
  else {
    const fd = openSync(out, 'w');
    try {
      writeSync(fd, text);
    } finally {
      closeSync(fd);
    }
  }
  io.err(`Exported ${plural(snapshot.tenants.length, 'organization')} and ${plural(recordCount(snapshot), 'record')}\n`);
  return 0;
}

async function importState(store: PgStateStore, snapshot: MockSnapshot, io: StateCommandIo): Promise<number> {
  const live = await store.liveInstances();
  if (live.length > 0) {
    const named = live.map((instance) => `${instance.host} pid ${instance.pid}`).join(', ');
    throw new Error(
      `${store.address.shown} is served by ${plural(live.length, 'instance')} (${named}): stop them before an import`,
    );
  }
  if (store.summary.organizations > 0) {
    throw new Error(
      `${store.address.shown} holds a state already (${plural(store.summary.organizations, 'organization')}): import into an empty database or another ?schema=`,
    );
  }
  await store.replace(snapshot);
  io.out(
    `Imported ${plural(snapshot.tenants.length, 'organization')} and ${plural(recordCount(snapshot), 'record')} into ${store.address.shown} (read back and verified)\n`,
  );
  return 0;
}

function recordCount(snapshot: MockSnapshot): number {
  return snapshot.tenants.reduce(
    (sum, tenant) => sum + Object.values(tenant.collections).reduce((count, entries) => count + entries.length, 0),
    0,
  );
}
