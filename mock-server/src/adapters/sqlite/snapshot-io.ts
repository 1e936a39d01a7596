import { readFileSync } from 'node:fs';
import { type MockSnapshot, STATE_FORMAT, STATE_VERSION, type TenantSnapshot } from '../../core/state/model.js';
import type { InspectedState } from './inspect.js';
import { snapshotProblem } from '../../core/state/snapshot-shape.js';

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
  const problem = snapshotProblem(value);
  if (problem) throw new Error(`${path}${problem.startsWith('is not') ? ' ' : ': '}${problem}`);
  return value as MockSnapshot;
}
