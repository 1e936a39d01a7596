import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { nodeBuiltin } from './node-builtins.js';
import { SERVER_LIMIT_DEFAULTS, type ServerLimits } from './server-limits.js';

/**
 * Where a server listens, and the origins it names: requests' absolute URLs and the API base URL (`origin`), and the
 * pages a person opens in a browser (`pageOrigin`, on loopback when the server listens on every interface). Both
 * carry the port once listening, before the first request is read, so a server asked for port 0 names the one picked.
 */
export class ServerAddress {
  readonly #hostForUrl: string;
  readonly #pageHost: string;
  origin: string;
  pageOrigin: string;

  constructor(readonly host: string) {
    this.#hostForUrl = host.includes(':') ? `[${host}]` : host;
    // A browser cannot reach "every interface": loopback names this machine.
    this.#pageHost = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '[::1]' : this.#hostForUrl;
    this.origin = `http://${this.#hostForUrl}`;
    this.pageOrigin = `http://${this.#pageHost}`;
  }

  /** Names the port the server listens on. */
  listening(port: number): void {
    this.origin = `http://${this.#hostForUrl}:${port}`;
    this.pageOrigin = `http://${this.#pageHost}:${port}`;
  }
}

/**
 * A node:http server that bounds every client (docs/standalone-server.md#timeouts-and-connections): the time to send
 * the headers and the whole request, how long an idle connection stays open, and how many connections are open.
 */
export function createLimitedServer(
  given: Partial<ServerLimits>,
  onRequest: (incoming: IncomingMessage, outgoing: ServerResponse) => void,
): Server {
  const limits: ServerLimits = { ...SERVER_LIMIT_DEFAULTS, ...definedOnly(given) };
  const server = nodeBuiltin('node:http').createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      keepAliveTimeout: limits.keepAliveTimeoutMs,
      // Node checks the two timeouts above on this interval (30 s by default, which would stretch them).
      connectionsCheckingInterval: Math.min(1_000, limits.headersTimeoutMs, limits.requestTimeoutMs || Infinity),
    },
    onRequest,
  );
  server.maxConnections = limits.maxConnections;
  return server;
}

/** Listens on `port` (0: a free one) of the address's host; resolves once listening, with the port named. */
export function listen(server: Server, port: number, address: ServerAddress): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    const listening = () => {
      server.off('error', reject);
      // A server listening on TCP reports an AddressInfo (a string only for a pipe or socket path).
      const picked = (server.address() as AddressInfo).port;
      address.listening(picked);
      resolve(picked);
    };
    let bound: object | undefined;
    try {
      bound = boundSocket(address.host, port);
    } catch (error) {
      server.off('error', reject);
      reject(error);
      return;
    }
    if (bound) server.listen(bound, listening);
    else server.listen(port, address.host, listening);
  });
}

/** Node's `net.BoundSocket` (Node.js 24.x), a socket bound at once to a numeric address. */
type BoundSocketClass = new (options: { host: string; port: number }) => object;

/**
 * A socket bound to an IPv4 host, for `listen` to adopt, where Node has `net.BoundSocket`; else undefined, and the
 * server listens on `(port, host)`. `listen(port, host)` looks any host up through node:dns, an IP address too, and the
 * lookup's check for an IPv6 link-local address compiles Node's IPv6 regular expression: about 3 ms of a start to its
 * first answer. A port in use throws here, with the same `EADDRINUSE` code as listen's error.
 */
function boundSocket(host: string, port: number): object | undefined {
  const net = nodeBuiltin('node:net');
  const BoundSocket = (net as { BoundSocket?: BoundSocketClass }).BoundSocket;
  if (BoundSocket === undefined || !net.isIPv4(host)) return undefined;
  return new BoundSocket({ host, port });
}

function definedOnly(options: Partial<ServerLimits>): Partial<ServerLimits> {
  const out: Partial<ServerLimits> = {};
  for (const name of Object.keys(SERVER_LIMIT_DEFAULTS) as (keyof ServerLimits)[]) {
    const value = options[name];
    if (value !== undefined) out[name] = value;
  }
  return out;
}
