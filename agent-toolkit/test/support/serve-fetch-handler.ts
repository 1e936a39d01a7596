import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A fetch-style handler served over HTTP on 127.0.0.1 (a merchant fake), with its base URL. */
export async function serveFetchHandler(): Promise<{
  url: string;
  use(handle: (request: Request) => Promise<Response>): void;
  close(): Promise<void>;
}> {
  let handler: ((request: Request) => Promise<Response>) | undefined;
  const server: Server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', async () => {
      const headers = new Headers();
      for (const [name, value] of Object.entries(incoming.headers)) if (typeof value === 'string') headers.set(name, value);
      const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
      const request = new Request(`http://${incoming.headers.host}${incoming.url}`, { method: incoming.method, headers, body });
      const response = handler ? await handler(request) : new Response('no handler', { status: 503 });
      outgoing.writeHead(response.status, Object.fromEntries(response.headers));
      outgoing.end(Buffer.from(await response.arrayBuffer()));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    use: (handle) => {
      handler = handle;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
