import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A reverse proxy on 127.0.0.1, as a TLS terminator in front of a hosted server is. */
export interface ReverseProxy {
  /** Where clients reach it, e.g. `http://127.0.0.1:41234`: the stand-in for the public origin. */
  origin: string;
  close(): Promise<void>;
}

/**
 * Forwards every request, path and body as they are, to `target` (a loopback URL) with `Host: publicHost` and
 * `X-Forwarded-Proto: https`, the way nginx or a load balancer forwards a public name, and streams the answer back.
 */
export async function startReverseProxy(target: string, publicHost: string): Promise<ReverseProxy> {
  const to = new URL(target);
  const server = createServer((incoming, outgoing) => {
    const forwarded = request(
      {
        host: to.hostname,
        port: to.port,
        path: incoming.url,
        method: incoming.method,
        headers: { ...incoming.headers, host: publicHost, 'x-forwarded-proto': 'https' },
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    forwarded.on('error', () => outgoing.destroy());
    incoming.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
