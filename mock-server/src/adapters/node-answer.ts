import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { isPromise } from '../core/is-promise.js';
import { internalError } from '../core/errors.js';
import { ConnectionDropped } from '../core/faults.js';
import type { Dispatch } from '../http/app.js';
import type { WireResponse } from '../http/response.js';
import { lingerOnUnreadBody, NodeApiRequest } from './node-request.js';
import type { ServerAddress } from './node-listener.js';

/**
 * The API's requests on node:http: each handed to `dispatch` as a NodeApiRequest and its answer written as soon as it
 * is ready, in the same turn when it was synchronous. Requests pipelined on one connection take effect in the order
 * they arrived: while one is still being answered (its body arriving, its operation's checks loading on first use),
 * the connection's later requests wait for it.
 */
export function nodeApiHandler(
  dispatch: Dispatch,
  address: ServerAddress,
  maxBodyBytes: number,
): (incoming: IncomingMessage, outgoing: ServerResponse) => void {
  /** Writes a request's answer when it is ready; a promise while it is not. */
  const serve = (incoming: IncomingMessage, outgoing: ServerResponse): Promise<void> | undefined => {
    const request = new NodeApiRequest(incoming, address.origin, maxBodyBytes);
    try {
      const result = dispatch(request);
      if (!isPromise(result)) {
        writeAnswer(incoming, outgoing, request, result);
        return undefined;
      }
      return result.then(
        (wire) => writeAnswer(incoming, outgoing, request, wire),
        (error: unknown) => writeFailure(outgoing, error),
      );
    } catch (error) {
      writeFailure(outgoing, error);
      return undefined;
    }
  };
  const ahead = new WeakMap<Socket, Promise<void>>();
  return (incoming, outgoing) => {
    const socket = incoming.socket;
    const before = ahead.get(socket);
    const pending = before ? before.then(() => serve(incoming, outgoing)) : serve(incoming, outgoing);
    if (!pending) return;
    ahead.set(socket, pending);
    void pending.finally(() => {
      if (ahead.get(socket) === pending) ahead.delete(socket);
    });
  };
}

/** Writes an answer (its headers without the body for HEAD), unless the client is gone. */
export function writeAnswer(
  incoming: IncomingMessage,
  outgoing: ServerResponse,
  request: NodeApiRequest,
  answer: WireResponse,
): void {
  if (outgoing.destroyed) return;
  const body = request.method === 'HEAD' ? '' : answer.body;
  answer.headers['Content-Length'] = String(Buffer.byteLength(answer.body));
  // A request that announced no body has nothing left to read (its message may just not be marked complete yet).
  if (!incoming.complete && request.bodyText === undefined) outgoing.once('finish', () => lingerOnUnreadBody(incoming));
  outgoing.writeHead(answer.status, answer.headers);
  outgoing.end(body);
}

/**
 * A request that got no answer: a fault's dropped connection is closed without one, as a failing network would;
 * anything else is a fault of the mock, 500 in the error format.
 */
export function writeFailure(outgoing: ServerResponse, error: unknown): void {
  if (error instanceof ConnectionDropped) {
    outgoing.socket?.destroy();
    return;
  }
  console.error('[cardrail-mock] transport error', error);
  if (outgoing.headersSent || outgoing.destroyed) return;
  outgoing.writeHead(500, { 'Content-Type': 'application/json', Connection: 'close' });
  outgoing.end(JSON.stringify(internalError().toBody()));
}
