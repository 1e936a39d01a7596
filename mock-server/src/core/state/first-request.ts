import type { Directory } from '../directory.js';
import { StateUnavailable } from '../errors.js';
import type { ChangeTracker } from './change-tracker.js';
import type { Copies } from './copies.js';
import { tenantsOf } from './copy-refresh.js';
import type { NewOrganizationSession } from './shared-store.js';

/** What the first request of a key needs of its gate (org-gate.ts). */
export interface FirstRequestHost {
  tracker: ChangeTracker;
  directory(): Directory;
  copies: Copies;
  /** The store, as answers name it: `the database at 127.0.0.1:5432/cardrail`. */
  where: string;
}

/**
 * The first request of a key no organization holds, in the transaction holding a lock on the key (OrgGate.runForKey):
 * `work` runs, and the organization it made, if any, is committed with the key (`made` is told its id). When the store
 * refuses the commit, that organization leaves memory, since nothing of it was kept (a copy left behind would be
 * committed in part by the key's next request), and the request fails with a StateUnavailable.
 */
export async function runFirstRequest<T>(
  host: FirstRequestHost,
  digest: string,
  session: NewOrganizationSession,
  work: () => T | Promise<T>,
  made: (organizationId: string) => void,
): Promise<T> {
  host.copies.serverRow(session.server);
  let outcome: { value: T } | { error: unknown };
  try {
    outcome = { value: await work() };
  } catch (error) {
    outcome = { error };
  }
  const directory = host.directory();
  const created = directory.knownKey(digest)?.organizationId;
  if (created === undefined) await session.close();
  else {
    try {
      const version = await session.commit(created, host.copies.commitOf(tenantsOf(directory, created), undefined));
      host.copies.committed(created, version);
      made(created);
    } catch (error) {
      host.tracker.quietly(() => {
        for (const tenant of tenantsOf(directory, created)) directory.drop(tenant);
      });
      throw StateUnavailable.of(error, host.where);
    }
  }
  if ('error' in outcome) throw outcome.error;
  return outcome.value;
}
