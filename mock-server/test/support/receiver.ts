import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { unwrap } from '@cardrail/sdk/webhooks';
import { http, HttpResponse } from 'msw';
import type { SetupServer } from 'msw/node';

export interface ReceivedDelivery {
  headers: Record<string, string>;
  /** The raw body, exactly as received. */
  body: string;
}

/**
 * What the receiver answers: a status, `hang` (never answers until released), or, as a user's receiver does, 204 for
 * a delivery that verifies with its own secret (the SDK's `unwrap`, against the wall clock) and 400 for any other.
 */
export type ReceiverBehaviour = { status: number; headers?: Record<string, string> } | { verifyWith: string } | 'hang';

/** A webhook endpoint that records every delivery and answers as told. */
export interface Receiver {
  url: string;
  received: ReceivedDelivery[];
  answer(behaviour: ReceiverBehaviour): void;
  /** Answers every hanging request with 200. */
  release(): void;
  close(): Promise<void>;
}

function lowerCaseHeaders(headers: IncomingHttpHeaders | Headers): Record<string, string> {
  const out: Record<string, string> = {};
  if (headers instanceof Headers)
    headers.forEach((value, name) => {
      out[name.toLowerCase()] = value;
    });
  else for (const [name, value] of Object.entries(headers)) out[name.toLowerCase()] = String(value);
  return out;
}

/** A real HTTP receiver on a free port. */
export async function startHttpReceiver(): Promise<Receiver> {
  let behaviour: ReceiverBehaviour = { status: 200 };
  const received: ReceivedDelivery[] = [];
  const hanging: (() => void)[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const delivery = { headers: lowerCaseHeaders(request.headers), body: Buffer.concat(chunks).toString('utf8') };
      received.push(delivery);
      if (behaviour === 'hang') {
        hanging.push(() => response.writeHead(200).end());
        return;
      }
      if ('verifyWith' in behaviour) {
        unwrap(delivery.body, delivery.headers, behaviour.verifyWith).then(
          () => response.writeHead(204).end(),
          (error: Error) => response.writeHead(400).end(error.message),
        );
        return;
      }
      response.writeHead(behaviour.status, behaviour.headers ?? {}).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/cardrail`,
    received,
    answer: (next) => (behaviour = next),
    release: () => {
      for (const finish of hanging.splice(0)) finish();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

let mswReceivers = 0;

/** A receiver answered by an MSW handler: the in-process transport intercepts the mock's delivery fetch. */
export function mswReceiver(server: SetupServer): Receiver {
  let behaviour: ReceiverBehaviour = { status: 200 };
  const received: ReceivedDelivery[] = [];
  const hanging: (() => void)[] = [];
  const url = `https://receiver-${++mswReceivers}.example.test/hooks/cardrail`;
  server.use(
    http.post(url, async ({ request }) => {
      const delivery = { headers: lowerCaseHeaders(request.headers), body: await request.text() };
      received.push(delivery);
      if (behaviour === 'hang') {
        await new Promise<void>((resolve) => hanging.push(resolve));
        return new HttpResponse('ok', { status: 200 });
      }
      if ('verifyWith' in behaviour) {
        return unwrap(delivery.body, delivery.headers, behaviour.verifyWith).then(
          () => new HttpResponse(null, { status: 204 }),
          (error: Error) => new HttpResponse(error.message, { status: 400 }),
        );
      }
      return new HttpResponse('ok', { status: behaviour.status, headers: behaviour.headers ?? {} });
    }),
  );
  return {
    url,
    received,
    answer: (next) => (behaviour = next),
    release: () => {
      for (const finish of hanging.splice(0)) finish();
    },
    close: async () => undefined,
  };
}
