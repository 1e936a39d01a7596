import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Delivery {
  /** The raw body, exactly as received: the signature covers these bytes. */
  body: string;
  signature: string | undefined;
}

export interface WebhookReceiver {
  url: string;
  deliveries: Delivery[];
  close(): Promise<void>;
}

/** A webhook endpoint on 127.0.0.1 that records every delivery and answers 204. */
export async function startReceiver(): Promise<WebhookReceiver> {
  const deliveries: Delivery[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const signature = request.headers['cardrail-signature'];
      deliveries.push({
        body: Buffer.concat(chunks).toString('utf8'),
        signature: Array.isArray(signature) ? signature[0] : signature,
      });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/cardrail`,
    deliveries,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
