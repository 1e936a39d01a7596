import type { TenantStore } from '../directory.js';
import { ChangeTracker } from './change-tracker.js';
import { tenantsOf } from './copy-refresh.js';
import type { DurableState, DurableStateOptions, SharedState } from './durable-contract.js';
import { OrgGate } from './org-gate.js';
import { SharedWaker } from './shared-waker.js';
import type { SharedStore } from './shared-store.js';

/** How many rounds `idle` runs due work and waits for attempts before it stops looking (each attempt may retry). */
const IDLE_ROUNDS = 20;

/**
 * The durable-state wiring of a shared store (SharedStore): requests are committed by their organization's batch
 * (org-gate.ts, through http/gate-step.ts), not by a group commit of the whole process, so `commit` and `commitAnswer`
 * have nothing to do; organizations are read from the store as they are used and let go when idle.
 */
export function sharedState(
  store: SharedStore,
  options: DurableStateOptions & { onGeneration(): void },
): DurableState & { shared: SharedState } {
  let gate: OrgGate | undefined;
  const tracker = new ChangeTracker(
    { commit: () => undefined },
    options.serverState,
    () => undefined,
    (tenant) => {
      if (tenant) gate?.changed(tenant);
    },
  );
  gate = new OrgGate({ store, tracker, directory: options.directory, onGeneration: options.onGeneration });
  const held = gate;
  const waker = new SharedWaker(store, held, {
    directory: options.directory,
    serverNow: options.serverNow,
    frozen: options.frozen,
  });
  const tenantStore: TenantStore = {
    // Every key and organization a request uses is read under its lock before the request runs (gate-step.ts).
    ownerOfKey: () => undefined,
    load: () => undefined,
    release(tenant) {
      // An organization's copy leaves memory whole, and only when nothing of it runs or waits here.
      const org = tenant.organizationId;
      const tenants = tenantsOf(options.directory(), org);
      if (held.busy(org) || tenants.some((one) => one.requestsInFlight > 0 || one.scheduler.working)) return false;
      for (const other of tenants) if (other !== tenant) options.directory().drop(other);
      held.forget(org);
      return true;
    },
  };
  const replaced = () => {
    held.forgetAll();
    options.onGeneration();
  };

  const shared: SharedState = {
    gate: held,
    async reset() {
      await store.reset();
      replaced();
    },
    async replace(snapshot) {
      await store.replace(snapshot);
      replaced();
      // Work that fell due while the snapshot was stored runs now.
      await waker.wakeDueBy(options.serverNow());
    },
    read: () => store.snapshot(),
    async advance(ms) {
      const server = await store.advanceShared(ms);
      const directory = options.directory();
      tracker.quietly(() => {
        directory.sharedOffsetMs = server.sharedOffsetMs;
      });
      const organizations = new Set([...directory.tenants()].map((tenant) => tenant.organizationId));
      // Entering an organization catches its clocks up, each due job run at its own instant (Copies.adopt).
      for (const org of organizations) await held.run(org, () => undefined);
      await waker.wakeDueBy(options.serverNow());
      for (const tenant of [...options.directory().tenants()]) await tenant.scheduler.settled();
    },
    async idle() {
      for (let round = 0; round < IDLE_ROUNDS; round++) {
        const tenants = [...options.directory().tenants()];
        for (const tenant of tenants) await held.inside(tenant, (current) => current.scheduler.runDue());
        if (!tenants.some((tenant) => tenant.scheduler.working || tenant.scheduler.dueNow)) break;
        for (const tenant of tenants) await tenant.scheduler.settled();
      }
      await held.settled();
    },
  };

  return {
    shared,
    changes: tracker,
    tenantStore,
    quietly: (work) => tracker.quietly(work),
    refusals: 0,
    commitAnswer: () => undefined,
    commit: () => undefined,
    settled: () => held.settled(),
    snapshot() {
      throw new Error(
        'The state is in PostgreSQL, shared with other processes: read it with `await mock.readState()`, the control API (connectMock(url).snapshot()) or `cardrail-mock state export <url>`',
      );
    },
    restored: () => undefined,
    reset: () => undefined,
    beforeAdvance: () => undefined,
    start: () => waker.start(),
    stop: () => waker.stop(),
  };
}
