import { readFileSync } from 'node:fs';
import { type MockSnapshot, STATE_FORMAT, STATE_VERSION, type TenantSnapshot } from '../../core/state/model.js';
import type { InspectedState } from './inspect.js';

/**
 * Writes a stored state as `snapshot()` JSON (MockSnapshot), one organization at a time, so that a state larger than
 * memory can be exported. Each organization's clock gets the server-wide advances made since it was saved, as when
 * the mock reads it back. `skipDamaged` leaves out rows that fail their checksum (naming each) instead of stopping.
 */
export function exportSnapshot(
  state: InspectedState,
  write: (chunk: string) => void,
  skipDamaged?: (problem: string) => void,
): { organizations: number; records: number } {
  const { sharedOffsetMs, random } = state.server;
  write(`{"format":${JSON.stringify(STATE_FORMAT)},"version":${STATE_VERSION},"sharedOffsetMs":${sharedOffsetMs},`);
  write(`"random":${JSON.stringify(random)},"tenants":[`);
  let organizations = 0;
  let records = 0;
  for (const key of state.reader.keys()) {
    const stored = state.reader.readChecked(key, skipDamaged);
    if (!stored) continue;
    const tenant: TenantSnapshot = {
      ...stored.tenant,
      clockOffsetMs: stored.tenant.clockOffsetMs + Math.max(0, sharedOffsetMs - stored.sharedOffsetMs),
    };
    write(`${organizations === 0 ? '' : ','}\n${JSON.stringify(tenant)}`);
    organizations++;
    for (const entries of Object.values(tenant.collections)) records += entries.length;
  }
  write('\n]}\n');
  return { organizations, records };
}

/** A `snapshot()` JSON file, checked to be one: its format and version, and the shape of each organization. */
export function readSnapshotFile(path: string): MockSnapshot {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new Error(`${path} is not JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  const snapshot = value as Partial<MockSnapshot> | null;
  if (snapshot?.format !== STATE_FORMAT || snapshot.version !== STATE_VERSION) {
    throw new Error(
      `${path} is not a ${STATE_FORMAT} version ${STATE_VERSION} snapshot (what \`cardrail-mock state export\` and mock.snapshot() write)`,
    );
  }
  if (typeof snapshot.sharedOffsetMs !== 'number' || !Array.isArray(snapshot.tenants)) {
    throw new Error(`${path}: a snapshot needs sharedOffsetMs (a number) and tenants (an array)`);
  }
  for (const [index, tenant] of snapshot.tenants.entries()) {
    const where = `${path}: tenants[${index}]`;
    if (typeof tenant?.organizationId !== 'string' || (tenant.mode !== 'test' && tenant.mode !== 'live')) {
      throw new Error(`${where} needs organizationId (a string) and mode (test or live)`);
    }
    if (typeof tenant.clockOffsetMs !== 'number' || typeof tenant.seq !== 'number') {
      throw new Error(`${where} needs clockOffsetMs and seq (numbers)`);
    }
    if (typeof tenant.collections !== 'object' || tenant.collections === null || !Array.isArray(tenant.idempotency)) {
      throw new Error(`${where} needs collections (an object) and idempotency (an array)`);
    }
    for (const [name, entries] of Object.entries(tenant.collections)) {
      const valid =
        Array.isArray(entries) &&
        entries.every(
          (entry) =>
            Array.isArray(entry) && typeof entry[0] === 'number' && typeof (entry[1] as { id?: unknown } | null)?.id === 'string',
        );
      if (!valid) throw new Error(`${where}.collections.${name} must be a list of [sequence number, record with an id]`);
    }
  }
  return snapshot as MockSnapshot;
}
