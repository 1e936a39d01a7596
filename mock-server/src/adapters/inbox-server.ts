import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { InboxReceiver, InboxRoutes } from '../testkit/inbox-router.js';
import { nodeBuiltin } from './node-builtins.js';

/** The largest delivery a remote inbox reads (a webhook body is a few kilobytes). */
const MAX_DELIVERY_BYTES = 1024 * 1024;

/**
 * The receiver of a remote mock's inboxes (connectMock): one HTTP server on 127.0.0.1 and a free port, started with
 * the first inbox, each inbox at a path of its own. Deliveries to an unknown path are 404.
 */
export class InboxServer implements InboxRoutes {
  readonly #receivers = new Map<string, InboxReceiver>();
  #server: Server | undefined;
  #origin = '';

  /** Starts listening (once); the URLs registered afterwards point at it. */
  async start(): Promise<void> {
    if (this.#server) return;
    const server = nodeBuiltin('node:http').createServer((incoming, outgoing) => void this.#receive(incoming, outgoing));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.#server = server;
    this.#origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  register(path: string, receiver: InboxReceiver): { url: string; remove(): void } {
    if (!this.#server) throw new Error('InboxServer.register before start()');
    const route = `/${path}`;
    this.#receivers.set(route, receiver);
    return { url: `${this.#origin}${route}`, remove: () => this.#receivers.delete(route) };
  }

  async close(): Promise<void> {
    const server = this.#server;
    this.#server = undefined;
    this.#receivers.clear();
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  async #receive(incoming: IncomingMessage, outgoing: ServerResponse): Promise<void> {
    const receiver = this.#receivers.get((incoming.url ?? '/').split('?')[0] ?? '/');
    const body = await readBody(incoming).catch(() => undefined);
    if (!receiver || incoming.method !== 'POST' || body === undefined) {
      outgoing.writeHead(receiver ? 400 : 404).end();
      return;
    }
    const headers = new Headers();
    for (const [name, value] of Object.entries(incoming.headers)) {
      if (typeof value === 'string') headers.set(name, value);
    }
    const answer = await receiver(new Request(`${this.#origin}${incoming.url}`, { method: 'POST', headers, body }));
    outgoing.writeHead(answer.status).end();
  }
}

function readBody(incoming: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    incoming.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_DELIVERY_BYTES) {
        incoming.destroy();
        reject(new Error('delivery too large'));
      } else chunks.push(chunk);
    });
    incoming.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    incoming.on('error', reject);
  });
}
