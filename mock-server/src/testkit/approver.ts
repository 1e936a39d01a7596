import type { Cardrail, CardrailUsers } from '@cardrail/sdk';
import type { EventSource, ServerEvents } from './events.js';
import type { Directory } from '../core/directory.js';
import type { ScheduledHandle } from '../core/scheduler.js';
import type { Tenant } from '../core/tenant.js';
import { intents } from '../engine/records.js';

/** An intent as the approver's client reads it (the same shape in both variants). */
export type ApproverIntent = Awaited<ReturnType<Cardrail['intents']['retrieve']>>;

/** The person's answer to one intent: approve it, reject it (with a reason), or leave it waiting (`undefined`). */
export type ApproverAnswer =
  | 'approve'
  | 'reject'
  | {
      /** The reason for the rejection, as the intent's `rejectionReason` will read. */
      reject: string;
    }
  | undefined;

/** Options of `mock.approver()`. */
export interface ApproverOptions<Client extends Cardrail | CardrailUsers> {
  /** A client of the organization whose intents to answer (`mock.client()`, or any client of this mock); it answers them. */
  client: Client;
  /** The same answer to every intent, or one per intent (a function may be async). */
  decide: 'approve' | 'reject' | ((intent: ApproverIntent) => ApproverAnswer | Promise<ApproverAnswer>);
  /**
   * Answer when the organization's test clock has moved this many seconds past the intent's declaration (after
   * `mock.clock.advance`, or the time passing on a clock that is not frozen). Default 0: at once.
   */
  delaySeconds?: number | undefined;
}

/** One answer the approver gave. */
export interface ApproverDecision {
  /** The intent answered. */
  intentId: string;
  /** What the approver answered. */
  decision: 'approve' | 'reject';
  /** The rejection's reason, or null. */
  reason: string | null;
  /** The intent as the API answered the decision (`pending` once approved, `rejected`). */
  intent: ApproverIntent;
}

/** A person played by the test kit: it answers the intents that wait for approval in one organization. */
export interface Approver {
  /** Every answer given so far, oldest first. */
  readonly decided: readonly ApproverDecision[];
  /** Decisions that failed (a rejected call other than the intent being decided elsewhere, a `decide` that threw). */
  readonly errors: readonly unknown[];
  /** Resolves once every answer under way has been given (or has failed). */
  idle(): Promise<void>;
  /** Answers nothing more (answers scheduled on the test clock are dropped). */
  stop(): void;
}

/** What the approver needs of its mock. */
export interface ApproverHost {
  /** Every event as it is stored, with its organization: the approver's cue for a new intent waiting. */
  events: Pick<ServerEvents, 'subscribe'>;
  /** The organizations and modes, where an intent and its test clock live. */
  directory(): Directory;
  /** The organization and mode of a client made by `mock.client()`; undefined for any other client. */
  tenantOfClient(client: object): Tenant | undefined;
}

const errorCode = (error: unknown) => (error as { code?: unknown }).code;

function checkOptions(options: ApproverOptions<Cardrail | CardrailUsers>): number {
  if (typeof options?.client?.intents?.retrieve !== 'function') {
    throw new TypeError('mock.approver() needs a client of this mock (mock.client(), or a Cardrail client of its API).');
  }
  if (options.decide !== 'approve' && options.decide !== 'reject' && typeof options.decide !== 'function') {
    throw new TypeError(
      `mock.approver(): decide must be 'approve', 'reject' or a function of the intent, got ${String(options.decide)}.`,
    );
  }
  const delay = options.delaySeconds ?? 0;
  if (typeof delay !== 'number' || !Number.isFinite(delay) || delay < 0) {
    throw new TypeError(`mock.approver(): delaySeconds must be a number of seconds of at least 0, got ${String(delay)}.`);
  }
  return delay * 1000;
}

/**
 * Plays the person who decides: every intent of the client's organization that waits for approval (those waiting
 * already, and each new one as `intent.pending_approval` announces it) is answered through the client, with `decide`'s
 * answer, once the organization's test clock reaches its declaration plus `delaySeconds`. Answers run as the
 * organization's scheduled work, so `mock.idle()` and `mock.clock.advance()` wait for them.
 */
export function createApprover<Client extends Cardrail | CardrailUsers>(
  host: ApproverHost,
  options: ApproverOptions<Client>,
): Approver {
  const delayMs = checkOptions(options);
  const client = options.client as Cardrail;
  // Known at once for a client of mock.client(); learnt from the first intent the client can read otherwise.
  const ownTenant = host.tenantOfClient(client);
  let organization: string | undefined = ownTenant?.organizationId;
  const decided: ApproverDecision[] = [];
  const errors: unknown[] = [];
  const running = new Set<Promise<void>>();
  const scheduled = new Map<string, ScheduledHandle>();
  let stopped = false;

  const answer = async (intentId: string, tenant: Tenant): Promise<void> => {
    let intent: ApproverIntent;
    try {
      intent = await client.intents.retrieve(intentId);
    } catch (error) {
      if (errorCode(error) === 'not_found') return; // another organization's intent
      throw error;
    }
    organization ??= tenant.organizationId;
    if (intent.status !== 'pending_approval') return;
    const given = typeof options.decide === 'function' ? await options.decide(intent) : options.decide;
    if (given === undefined || stopped) return;
    const reason = typeof given === 'object' ? given.reject : null;
    try {
      const result =
        given === 'approve'
          ? await client.intents.approve(intentId)
          : await client.intents.reject(intentId, reason ? { reason } : {});
      decided.push({ intentId, decision: given === 'approve' ? 'approve' : 'reject', reason, intent: result });
    } catch (error) {
      if (errorCode(error) !== 'invalid_state') throw error; // decided elsewhere meanwhile
    }
  };

  const schedule = (intentId: string, tenant: Tenant, declaredAt: number): void => {
    if (stopped || scheduled.has(intentId)) return;
    const run = () => {
      scheduled.delete(intentId);
      if (stopped) return;
      const work = answer(intentId, tenant).catch((error: unknown) => void errors.push(error));
      running.add(work);
      void work.finally(() => running.delete(work));
      tenant.scheduler.track(work);
    };
    scheduled.set(intentId, tenant.scheduler.schedule(declaredAt + delayMs, run, `approver answer ${intentId}`));
  };

  const unsubscribe = host.events.subscribe((event, source: EventSource) => {
    if (event.type !== 'intent.pending_approval') return;
    if (organization !== undefined && source.organizationId !== organization) return;
    const tenant = host.directory().tenant(source.organizationId, source.mode);
    schedule((event.data as { intentId: string }).intentId, tenant, tenant.now());
  });

  // The intents already waiting: found through the client, on the test clock of the tenant that holds them.
  let holder = ownTenant;
  const waiting = (async () => {
    for await (const intent of client.intents.list({ status: 'pending_approval', limit: 100 })) {
      // Another client's organization and mode are found by its first intent: every intent it lists is theirs.
      holder ??= [...host.directory().tenants()].find((candidate) => intents.of(candidate).get(intent.id));
      if (holder === undefined) continue;
      organization ??= holder.organizationId;
      schedule(intent.id, holder, Date.parse(intent.createdAt));
    }
  })().catch((error: unknown) => void errors.push(error));
  running.add(waiting);
  void waiting.finally(() => running.delete(waiting));

  return {
    decided,
    errors,
    async idle() {
      while (running.size > 0) await Promise.all([...running]);
    },
    stop() {
      stopped = true;
      unsubscribe();
      for (const handle of scheduled.values()) handle.cancel();
      scheduled.clear();
    },
  };
}
