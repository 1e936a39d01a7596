import type { CardrailToolkit } from '../../toolkit.js';
import {
  type Acknowledged,
  acknowledge,
  followAll,
  type ListenMessage,
  listenRefusal,
  listenResult,
  type Outgoing,
  rpcError,
} from './task-follow.js';
import type { TaskIds } from './task-id.js';

/** At most this many task listens at once per server: each reads the API while its tasks wait. */
const MAX_LISTENS = 64;
const KEEP_ALIVE_MS = 15_000;

/**
 * The open `subscriptions/listen` requests for task status of one server (see task-follow.ts), over HTTP (each its
 * own stream of server-sent events) or stdio (lines among the connection's other messages). At most 64 at once; a
 * listen ends when its tasks have, when the client goes away or cancels it, or when the server closes.
 */
export class TaskListens {
  /** How to end each open listen: gracefully (its result) or not. */
  readonly #open = new Map<string | number | object, (graceful: boolean) => void>();

  /** Ends every open listen with its result, as a server that shuts down does. */
  closeAll(): void {
    for (const end of [...this.#open.values()]) end(true);
  }

  /** Ends the listen of this request id without a result (the client sent `notifications/cancelled`). */
  cancel(id: string | number): boolean {
    const end = this.#open.get(id);
    end?.(false);
    return end !== undefined;
  }

  /**
   * Follows the tasks, sending through `send`; returns how to end the listen, which runs once (with the listen's
   * result when graceful), then `onEnd`. Keyed by `key` (the request id on a connection, an object per HTTP stream).
   */
  #start(
    message: ListenMessage,
    { ack, followed }: Acknowledged,
    toolkit: CardrailToolkit,
    send: (message: Outgoing) => void,
    key: string | number | object,
    onEnd?: () => void,
  ): (graceful: boolean) => void {
    const stop = new AbortController();
    let over = false;
    const end = (graceful: boolean) => {
      if (over) return;
      if (graceful) send(listenResult(message));
      over = true;
      this.#open.delete(key);
      stop.abort();
      onEnd?.();
    };
    this.#open.set(key, end);
    send(ack);
    void followAll(message, followed, toolkit, (out) => !over && send(out), stop.signal).then(() => end(true));
    return end;
  }

  /** Over HTTP: the listen as a stream of server-sent events. */
  async serveHttp(message: ListenMessage, request: Request, tasks: TaskIds, toolkit: CardrailToolkit): Promise<Response> {
    const refused = listenRefusal(message, request.headers.get('mcp-protocol-version'));
    if (refused !== undefined) return Response.json(refused.error, { status: refused.status });
    if (this.#open.size >= MAX_LISTENS) return Response.json(rpcError(message.id, -32603, 'Subscription limit reached'));
    const acknowledged = await acknowledge(message, tasks, toolkit);
    if (this.#open.size >= MAX_LISTENS) return Response.json(rpcError(message.id, -32603, 'Subscription limit reached'));
    const encoder = new TextEncoder();
    let closed = false;
    let end: ((graceful: boolean) => void) | undefined;
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => {
        const write = (text: string) => !closed && controller.enqueue(encoder.encode(text));
        const keepAlive = setInterval(() => write(': keepalive\n\n'), KEEP_ALIVE_MS);
        const close = () => {
          if (closed) return;
          closed = true;
          clearInterval(keepAlive);
          request.signal.removeEventListener('abort', onAbort);
          try {
            controller.close();
          } catch {
            // The client cancelled the stream: nothing left to close.
          }
        };
        const onAbort = () => end?.(false);
        request.signal.addEventListener('abort', onAbort, { once: true });
        const event = (out: Outgoing) => write(`event: message\ndata: ${JSON.stringify(out)}\n\n`);
        end = this.#start(message, acknowledged, toolkit, event, {}, close);
      },
      cancel: () => end?.(false),
    });
    return new Response(body, {
      status: 200,
      headers: { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache, no-transform', Connection: 'keep-alive' },
    });
  }

  /** On a connection (stdio): the listen's messages written among the others, as lines. */
  async serveLines(message: ListenMessage, tasks: TaskIds, toolkit: CardrailToolkit, send: (message: Outgoing) => void) {
    const refused = listenRefusal(message, null);
    if (refused !== undefined) return send(refused.error);
    if (this.#open.size >= MAX_LISTENS || this.#open.has(message.id)) {
      return send(rpcError(message.id, -32603, 'Subscription limit reached'));
    }
    const acknowledged = await acknowledge(message, tasks, toolkit);
    if (this.#open.size >= MAX_LISTENS || this.#open.has(message.id)) {
      return send(rpcError(message.id, -32603, 'Subscription limit reached'));
    }
    this.#start(message, acknowledged, toolkit, send, message.id);
  }
}
