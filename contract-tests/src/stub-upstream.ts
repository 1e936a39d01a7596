import { createServer, type Server } from 'node:http';

/** A tiny HTTP server answering every request from a function: an upstream for Prism's proxy in tests. */
export async function startStubUpstream(
  answer: (method: string, path: string) => { status: number; body: unknown },
): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const { status, body } = answer(req.method ?? 'GET', req.url ?? '/');
    res.writeHead(status, { 'content-type': 'application/json', 'request-id': 'req_stubupstream0001' });
    res.end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
