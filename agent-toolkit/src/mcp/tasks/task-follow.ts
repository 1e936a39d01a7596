import { CLIENT_CAPABILITIES_META_KEY, PROTOCOL_VERSION_META_KEY, SUBSCRIPTION_ID_META_KEY } from '@modelcontextprotocol/server';
import type { CardrailToolkit } from '../../toolkit.js';
import { TASKS_EXTENSION } from '../approval/approval-call.js';
import { readTask } from './task-handlers.js';
import type { TaskIds } from './task-id.js';
import { type DetailedTask, type TaskIntent, taskOf } from './task-state.js';

/** The protocol revision `subscriptions/listen` belongs to. */
const LISTEN_REVISION = '2026-07-28';
/** At most this many tasks per listen request: each is followed by reading its intent. */
const MAX_TASK_IDS = 16;
/** How long one wait for a decision lasts before it is started again (the SDK's wait reads with growing pauses). */
const WAIT_SECONDS = 300;
const RETRY_MS = 5_000;

/** A `subscriptions/listen` request for task status notifications. */
export interface ListenMessage {
  id: string | number;
  params: { notifications: { taskIds: unknown[] }; _meta?: Record<string, unknown> };
}

/** A JSON-RPC message the server sends. */
export type Outgoing = Record<string, unknown>;

/**
 * Whether a message is a `subscriptions/listen` for task status notifications (`notifications.taskIds`), which this
 * server serves itself: the SDK's listen routers (2.4, HTTP and stdio) know list changes and resource updates only,
 * and drop `taskIds`.
 */
export function isTaskListen(message: unknown): message is ListenMessage {
  const m = message as { method?: unknown; id?: unknown; params?: { notifications?: { taskIds?: unknown } } } | null;
  return (
    typeof m === 'object' &&
    m !== null &&
    m.method === 'subscriptions/listen' &&
    (typeof m.id === 'string' || typeof m.id === 'number') &&
    Array.isArray(m.params?.notifications?.taskIds) &&
    m.params.notifications.taskIds.length > 0
  );
}

export function rpcError(id: string | number, code: number, message: string, data?: unknown): Outgoing {
  return { jsonrpc: '2.0', id, error: { code, message, ...(data === undefined ? {} : { data }) } };
}

/**
 * What a listen request must carry, answered as the SDK answers the same mistakes on other requests (with the HTTP
 * status it uses): the revision, the same in the `MCP-Protocol-Version` header when there is one, the tasks extension
 * declared, and at most 16 task ids.
 */
export function listenRefusal(
  message: ListenMessage,
  headerVersion: string | null,
): { status: number; error: Outgoing } | undefined {
  const meta = message.params._meta ?? {};
  const version = meta[PROTOCOL_VERSION_META_KEY];
  if (version !== LISTEN_REVISION) {
    const text = `Invalid params: _meta["${PROTOCOL_VERSION_META_KEY}"] must be ${LISTEN_REVISION}.`;
    return { status: 400, error: rpcError(message.id, -32602, text) };
  }
  if (headerVersion !== null && headerVersion !== version) {
    const text = `MCP-Protocol-Version ${headerVersion} does not match the request's ${version}.`;
    return { status: 400, error: rpcError(message.id, -32020, text) };
  }
  const capabilities = meta[CLIENT_CAPABILITIES_META_KEY] as { extensions?: Record<string, unknown> } | undefined;
  if (capabilities?.extensions?.[TASKS_EXTENSION] === undefined) {
    const required = { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } };
    return { status: 400, error: rpcError(message.id, -32021, 'Missing required client capability', required) };
  }
  const ids = message.params.notifications.taskIds;
  if (ids.length > MAX_TASK_IDS || ids.some((id) => typeof id !== 'string')) {
    const text = `Invalid params: notifications.taskIds takes at most ${MAX_TASK_IDS} task ids.`;
    return { status: 200, error: rpcError(message.id, -32602, text) };
  }
  return undefined;
}

/** A pause that ends early when the signal does. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

export interface Followed {
  taskId: string;
  tool: string;
  intentId: string;
}

/** Waits until the task's intent is decided (or the signal ends the wait), then notifies the task as it ends. */
async function follow(task: Followed, toolkit: CardrailToolkit, signal: AbortSignal, notify: (task: DetailedTask) => void) {
  while (!signal.aborted) {
    const waited = await toolkit.call('wait_for_approval', { intentId: task.intentId, timeoutSeconds: WAIT_SECONDS }, { signal });
    if (signal.aborted) return;
    if (!waited.ok) {
      if (['not_found', 'out_of_scope'].includes(waited.error.code)) return;
      // The API unreachable, or another passing failure: read again after a pause rather than end the stream.
      await pause(RETRY_MS, signal);
      continue;
    }
    const current = taskOf(task.taskId, task.tool, waited.data as TaskIntent, toolkit);
    if (current.status !== 'working') return notify(current);
  }
}

/** The tasks a listen follows: those among its ids that this caller may follow (others are left out). */
export interface Acknowledged {
  ack: Outgoing;
  followed: Followed[];
}

/**
 * The acknowledgement of a listen request for task status (tasks extension, "Task Status Notifications"): the task
 * ids this caller may follow; each is read once (at most 16).
 */
export async function acknowledge(message: ListenMessage, tasks: TaskIds, toolkit: CardrailToolkit): Promise<Acknowledged> {
  const followed: Followed[] = [];
  for (const taskId of message.params.notifications.taskIds as string[]) {
    const known = await readTask(taskId, tasks, toolkit).catch(() => undefined);
    if (known !== undefined) followed.push({ taskId, tool: known.ref.tool, intentId: known.ref.intentId });
  }
  const ack = {
    jsonrpc: '2.0',
    method: 'notifications/subscriptions/acknowledged',
    params: {
      notifications: { taskIds: followed.map((task) => task.taskId) },
      _meta: { [SUBSCRIPTION_ID_META_KEY]: message.id },
    },
  };
  return { ack, followed };
}

/**
 * Follows the acknowledged tasks: emits `notifications/tasks` with the whole task (what `tasks/get` answers then) once
 * each is decided, or at once when it already is; resolves once every one ended or `signal` aborted. The caller then
 * ends the listen, with its result when it ended gracefully.
 */
export async function followAll(
  message: ListenMessage,
  followed: Followed[],
  toolkit: CardrailToolkit,
  emit: (message: Outgoing) => void,
  signal: AbortSignal,
): Promise<void> {
  const meta = { [SUBSCRIPTION_ID_META_KEY]: message.id };
  const notify = (task: DetailedTask) =>
    emit({ jsonrpc: '2.0', method: 'notifications/tasks', params: { ...task, _meta: meta } });
  await Promise.all(followed.map((task) => follow(task, toolkit, signal, notify)));
}

/** The listen request's result: how a server ends a subscription gracefully. */
export function listenResult(message: ListenMessage): Outgoing {
  return {
    jsonrpc: '2.0',
    id: message.id,
    result: { resultType: 'complete', _meta: { [SUBSCRIPTION_ID_META_KEY]: message.id } },
  };
}
