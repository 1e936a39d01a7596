import { STATE_FORMAT, STATE_VERSION } from './model.js';

/**
 * What is wrong with a value offered as a snapshot (`mock.snapshot()`'s JSON), or undefined when it has the shape:
 * its format and version, and each organization's fields and record lists. Checked before a restore, so that a value
 * that is not a snapshot is refused whole rather than half restored.
 */
export function snapshotProblem(value: unknown): string | undefined {
  const snapshot = value as { [name: string]: unknown } | null;
  if (
    typeof snapshot !== 'object' ||
    snapshot === null ||
    snapshot.format !== STATE_FORMAT ||
    snapshot.version !== STATE_VERSION
  ) {
    return `is not a ${STATE_FORMAT} version ${STATE_VERSION} snapshot (what \`cardrail-mock state export\` and mock.snapshot() write)`;
  }
  if (typeof snapshot.sharedOffsetMs !== 'number' || !Array.isArray(snapshot.tenants)) {
    return 'a snapshot needs sharedOffsetMs (a number) and tenants (an array)';
  }
  for (const [index, tenant] of (snapshot.tenants as ({ [name: string]: unknown } | null)[]).entries()) {
    const where = `tenants[${index}]`;
    if (typeof tenant?.organizationId !== 'string' || (tenant.mode !== 'test' && tenant.mode !== 'live')) {
      return `${where} needs organizationId (a string) and mode (test or live)`;
    }
    if (typeof tenant.clockOffsetMs !== 'number' || typeof tenant.seq !== 'number') {
      return `${where} needs clockOffsetMs and seq (numbers)`;
    }
    if (typeof tenant.collections !== 'object' || tenant.collections === null || !Array.isArray(tenant.idempotency)) {
      return `${where} needs collections (an object) and idempotency (an array)`;
    }
    for (const [name, entries] of Object.entries(tenant.collections)) {
      const valid =
        Array.isArray(entries) &&
        entries.every(
          (entry) =>
            Array.isArray(entry) && typeof entry[0] === 'number' && typeof (entry[1] as { id?: unknown } | null)?.id === 'string',
        );
      if (!valid) return `${where}.collections.${name} must be a list of [sequence number, record with an id]`;
    }
  }
  return undefined;
}
