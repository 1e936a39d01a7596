import { CLIENT_CAPABILITIES_META_KEY, PROTOCOL_VERSION_META_KEY, SUBSCRIPTION_ID_META_KEY } from '@modelcontextprotocol/server';
import type { CardrailToolkit } from '../../toolkit.js';
import { TASKS_EXTENSION } from '../approval/approval-call.js';
import { readTask } from './task-handlers.js';
import type { TaskIds } from './task-id.js';
import { type DetailedTask, taskOf } from './task-state.js';

/** The protocol revision `subscriptions/listen` belongs to. */
const LISTEN_REVISION = '2026-07-28';
/** At most this many tasks per stream, and this many task streams at once per handler: each polls the API. */
const MAX_TASK_IDS = 16;
const MAX_STREAMS = 64;
/** How long one wait for a decision lasts before it is started again (the SDK's wait reads with growing pauses). */
const WAIT_SECONDS = 300;
const KEEP_ALIVE_MS = 15_000;
const RETRY_MS = 5_000;

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

interface ListenMessage {
  id: string | number;
  params: { notifications: { taskIds: unknown[] }; _meta?: Record<string, unknown> };
}

/**
 * Whether a message is a `subscriptions/listen` for task status notifications (`notifications.taskIds`), which this
 * server serves itself: the SDK's listen router (2.4) knows list changes and resource updates only, and drops
 * `taskIds`.
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

function rpcError(status: number, id: string | number, code: number, message: string, data?: unknown): Response {
  return Response.json({ jsonrpc: '2.0', id, error: { code, message, ...(data === undefined ? {} : { data }) } }, { status });
}

/** What a listen request must carry, answered as the SDK answers the same mistakes on other requests. */
function refusal(message: ListenMessage, request: Request): Response | undefined {
  const meta = message.params._meta ?? {};
  const version = meta[PROTOCOL_VERSION_META_KEY];
  if (version !== LISTEN_REVISION) {
    return rpcError(400, message.id, -32602, `Invalid params: _meta["${PROTOCOL_VERSION_META_KEY}"] must be ${LISTEN_REVISION}.`);
  }
  const header = request.headers.get('mcp-protocol-version');
  if (header !== null && header !== version) {
    return rpcError(400, message.id, -32020, `MCP-Protocol-Version ${header} does not match the request's ${version}.`);
  }
  const capabilities = meta[CLIENT_CAPABILITIES_META_KEY] as { extensions?: Record<string, unknown> } | undefined;
  if (capabilities?.extensions?.[TASKS_EXTENSION] === undefined) {
    return rpcError(400, message.id, -32021, 'Missing required client capability', {
      requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } },
    });
  }
  const ids = message.params.notifications.taskIds;
  if (ids.length > MAX_TASK_IDS || ids.some((id) => typeof id !== 'string')) {
    return rpcError(200, message.id, -32602, `Invalid params: notifications.taskIds takes at most ${MAX_TASK_IDS} task ids.`);
  }
  return undefined;
}

/**
 * `subscriptions/listen` for task status (tasks extension, "Task Status Notifications"), as server-sent events: the
 * acknowledgement with the task ids this caller may follow (others are left out), then `notifications/tasks` with the
 * full task once each is decided (or at once when it already is), then the stream's graceful end. While a task waits
 * its intent is read with the SDK's growing pauses; the stream stops reading when the client goes away.
 */
export class TaskListens {
  #open = 0;
  /** How to end each open stream gracefully (the listen request's result), for `closeAll`. */
  readonly #endings = new Set<() => void>();

  /** Ends every open stream with the listen request's result, as a server that shuts down does. */
  closeAll(): void {
    for (const end of this.#endings) end();
  }

  async serve(message: ListenMessage, request: Request, tasks: TaskIds, toolkit: CardrailToolkit): Promise<Response> {
    const refused = refusal(message, request);
    if (refused !== undefined) return refused;
    if (this.#open >= MAX_STREAMS) return rpcError(200, message.id, -32603, 'Subscription limit reached');
    const stop = new AbortController();
    const onAbort = () => stop.abort();
    request.signal.addEventListener('abort', onAbort, { once: true });
    const followed: { taskId: string; tool: string; intentId: string }[] = [];
    for (const taskId of message.params.notifications.taskIds as string[]) {
      const known = await readTask(taskId, tasks, toolkit, stop.signal).catch(() => undefined);
      if (known !== undefined) followed.push({ taskId, tool: known.ref.tool, intentId: known.ref.intentId });
    }
    const meta = { [SUBSCRIPTION_ID_META_KEY]: message.id };
    const encoder = new TextEncoder();
    this.#open += 1;
    let closed = false;
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => {
        const write = (payload: unknown) => {
          if (!closed) controller.enqueue(encoder.encode(`event: message\ndata: ${JSON.stringify(payload)}\n\n`));
        };
        const keepAlive = setInterval(() => !closed && controller.enqueue(encoder.encode(': keepalive\n\n')), KEEP_ALIVE_MS);
        const finish = (graceful: boolean) => {
          if (closed) return;
          if (graceful) write({ jsonrpc: '2.0', id: message.id, result: { resultType: 'complete', _meta: meta } });
          closed = true;
          this.#endings.delete(ending);
          stop.abort();
          clearInterval(keepAlive);
          request.signal.removeEventListener('abort', onAbort);
          this.#open -= 1;
          try {
            controller.close();
          } catch {
            // The client cancelled the stream: nothing left to close.
          }
        };
        const ending = () => finish(true);
        this.#endings.add(ending);
        stop.signal.addEventListener('abort', () => finish(false), { once: true });
        write({
          jsonrpc: '2.0',
          method: 'notifications/subscriptions/acknowledged',
          params: { notifications: { taskIds: followed.map((task) => task.taskId) }, _meta: meta },
        });
        const notify = (task: DetailedTask) =>
          write({ jsonrpc: '2.0', method: 'notifications/tasks', params: { ...task, _meta: meta } });
        void Promise.all(followed.map((task) => follow(task, toolkit, stop.signal, notify))).then(() => finish(true));
      },
      cancel: () => stop.abort(),
    });
    return new Response(body, {
      status: 200,
      headers: { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache, no-transform', Connection: 'keep-alive' },
    });
  }
}

/** Waits until the task's intent is decided (or the signal ends the wait), then notifies the task as it ends. */
async function follow(
  task: { taskId: string; tool: string; intentId: string },
  toolkit: CardrailToolkit,
  signal: AbortSignal,
  notify: (task: DetailedTask) => void,
): Promise<void> {
  while (!signal.aborted) {
    const waited = await toolkit.call('wait_for_approval', { intentId: task.intentId, timeoutSeconds: WAIT_SECONDS }, { signal });
    if (signal.aborted) return;
    if (!waited.ok) {
      if (['not_found', 'out_of_scope'].includes(waited.error.code)) return;
      // The API unreachable, or another passing failure: read again after a pause rather than end the stream.
      await pause(RETRY_MS, signal);
      continue;
    }
    const current = taskOf(task.taskId, task.tool, waited.data as Parameters<typeof taskOf>[2], toolkit);
    if (current.status !== 'working') return notify(current);
  }
}
