import type { MockSnapshot } from '../core/state/model.js';
import type { FaultInfo, FaultOptions } from '../testkit/fault-options.js';
import { CONTROL_BASE_PATH } from '../testkit/control-path.js';
import type { TestKit } from '../testkit/test-kit.js';
import type { WireEvent } from '../testkit/events.js';

/** A fault injected on a remote mock. */
export interface RemoteFaultHandle {
  /** `flt_...`: in the `Cardrail-Mock-Fault` header of the answers it changed. */
  readonly id: string;
  /** The fault as it stands, or undefined once used up or cleared. */
  info(): Promise<FaultInfo | undefined>;
  /** Removes the fault. */
  clear(): Promise<void>;
}

/**
 * A standalone mock (`cardrail-mock --control`) driven from another process, with the in-process test kit's API:
 * the same `client`, `webhookInbox`, `cardholder` and `trigger`, and the control calls as promises. (`approver` reacts to
 * events in the mock's process, so it exists in-process only.)
 */
export interface RemoteMock extends Omit<TestKit, 'approver'> {
  /** The API base URL of the mock (`http://127.0.0.1:4010/v1`). */
  readonly url: string;
  /** Forgets every organization, object, event, pending delivery and fault. */
  reset(): Promise<void>;
  /** The whole state, the same JSON as `mock.snapshot()`. */
  snapshot(): Promise<MockSnapshot>;
  /** Replaces the state with a snapshot (of this mock or any other). */
  restore(snapshot: MockSnapshot): Promise<void>;
  /** Resolves once no due work is left and every webhook attempt started has finished. */
  idle(): Promise<void>;
  /** Every organization's test clock: read one by key, or advance them all. */
  clock: RemoteClock;
  /** Faults on demand, as `mock.faults`. */
  faults: RemoteFaults;
  /** The events of a key's organization, oldest first, in its variant's names and envelope. */
  events: RemoteEvents;
  /** The webhook deliveries of a key's organization, newest first, as the API shows them. */
  deliveries(apiKey: string): Promise<unknown[]>;
  /** Stops the local receiver of the inboxes (the mock keeps running). */
  close(): Promise<void>;
}

/** A remote mock's test clocks. */
export interface RemoteClock {
  /** The test-clock time of a key's organization (a key not used yet: the base time), or the base time. */
  now(apiKey?: string): Promise<Date>;
  /** Advances every organization's clock by `seconds`, running what falls due in time order. */
  advance(seconds: number): Promise<void>;
}

/** A remote mock's faults, as `mock.faults`. */
export interface RemoteFaults {
  /** Faults the matching requests; a bad option rejects with a ControlError (400 naming it). */
  inject(options: FaultOptions): Promise<RemoteFaultHandle>;
  /** The faults in force, in the order they apply. */
  list(): Promise<FaultInfo[]>;
  /** Removes one fault; false when it was already gone. */
  remove(id: string): Promise<boolean>;
  /** Removes every fault. */
  clear(): Promise<void>;
}

/** A remote mock's events. */
export interface RemoteEvents {
  /** The events of `apiKey`'s organization, oldest first, of one `type` if given. */
  list(query: { apiKey: string; type?: string }): Promise<WireEvent[]>;
}

/** A control call the mock refused: its status and the API's error body. */
export class ControlError extends Error {
  constructor(
    /** The HTTP status of the refusal. */
    readonly status: number,
    /** The answer's body, in the API's error format. */
    readonly body: unknown,
    what: string,
  ) {
    super(`${what}: the mock's control API answered ${status} ${JSON.stringify(body)}`);
    this.name = 'ControlError';
  }
}

/** A call of the control API: its name (for errors), method, path, and JSON body or organization's key. */
export type ControlCall = (
  what: string,
  method: string,
  path: string,
  init?: { body?: unknown; apiKey?: string },
) => Promise<unknown>;

/**
 * Calls a mock's control API at `origin` with the bearer `token`: a JSON body in, the parsed answer out, and a refusal
 * as a ControlError with its status and the API's error body.
 */
export function controlCall(origin: string, token: string, fetchOf: () => typeof fetch): ControlCall {
  return async (what, method, path, init = {}) => {
    const headers: Record<string, string> = { Authorization: `Bearer ${token}` };
    if (init.body !== undefined) headers['Content-Type'] = 'application/json';
    if (init.apiKey !== undefined) headers['Cardrail-Api-Key'] = init.apiKey;
    const response = await fetchOf()(`${origin}${CONTROL_BASE_PATH}${path}`, {
      method,
      headers,
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    const text = await response.text();
    const body: unknown = text === '' ? undefined : JSON.parse(text);
    if (!response.ok) throw new ControlError(response.status, body, what);
    return body;
  };
}

/** What of a remote mock is a control call: the state, the clocks, faults, events and deliveries. */
type RemoteControl = Omit<RemoteMock, 'url' | 'close' | keyof Omit<TestKit, 'approver'>>;

/** The control calls of a remote mock; `now` is its clock's reading (connect-mock.ts), which its inboxes share. */
export function remoteControl(call: ControlCall, now: RemoteClock['now']): RemoteControl {
  return {
    reset: async () => {
      await call('reset', 'POST', '/reset');
    },
    snapshot: async () => (await call('snapshot', 'GET', '/snapshot')) as MockSnapshot,
    restore: async (snapshot) => {
      await call('restore', 'PUT', '/snapshot', { body: snapshot });
    },
    idle: async () => {
      await call('idle', 'POST', '/idle');
    },
    clock: {
      now,
      advance: async (seconds) => {
        await call('clock.advance', 'POST', '/clock/advance', { body: { seconds } });
      },
    },
    faults: remoteFaults(call),
    events: {
      list: async ({ apiKey, type }) => {
        const query = type === undefined ? '' : `?type=${encodeURIComponent(type)}`;
        return ((await call('events.list', 'GET', `/events${query}`, { apiKey })) as { data: WireEvent[] }).data;
      },
    },
    deliveries: async (apiKey) => ((await call('deliveries', 'GET', '/deliveries', { apiKey })) as { data: unknown[] }).data,
  };
}

function remoteFaults(call: ControlCall): RemoteFaults {
  return {
    inject: async (faultOptions) => {
      const { id } = (await call('faults.inject', 'POST', '/faults', { body: faultOptions })) as FaultInfo;
      const path = `/faults/${encodeURIComponent(id)}`;
      return {
        id,
        info: () => call('fault', 'GET', path).then((info) => info as FaultInfo, absentOn404),
        clear: async () => {
          await call('fault.clear', 'DELETE', path).catch(absentOn404);
        },
      };
    },
    list: async () => ((await call('faults.list', 'GET', '/faults')) as { data: FaultInfo[] }).data,
    remove: (id) =>
      call('faults.remove', 'DELETE', `/faults/${encodeURIComponent(id)}`).then(
        () => true,
        (error: unknown) => absentOn404(error) ?? false,
      ),
    clear: async () => {
      await call('faults.clear', 'DELETE', '/faults');
    },
  };
}

/** A fault or an organization already gone (used up, cleared, never seen) is no error for the caller. */
export function absentOn404(error: unknown): undefined {
  if (error instanceof ControlError && error.status === 404) return undefined;
  throw error;
}
