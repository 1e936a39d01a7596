import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One webhook POST as a receiver on 127.0.0.1 got it. */
export interface ReceivedWebhook {
  webhookId: string;
  type: string;
  eventId: string;
  /** The instance's attempt answered (the receiver may also drop a request: answered false). */
  answered: boolean;
}

/**
 * A webhook receiver on 127.0.0.1 that records each POST's `webhook-id` and event; `stall(ms)` makes the next
 * answers wait (an attempt in flight while its instance is killed), `hold(until)` makes them wait for a promise (the
 * test does something while the attempt is in flight).
 */
export async function startReceiver(): Promise<{
  url: string;
  received: ReceivedWebhook[];
  stall(ms: number): void;
  hold(until: Promise<void> | undefined): void;
  close(): Promise<void>;
}> {
  const received: ReceivedWebhook[] = [];
  let stallMs = 0;
  let held: Promise<void> | undefined;
  const server: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      let event: { id?: string; type?: string } = {};
      try {
        event = JSON.parse(body) as { id?: string; type?: string };
      } catch {}
      const entry = {
        webhookId: String(request.headers['webhook-id'] ?? ''),
        type: event.type ?? '',
        eventId: event.id ?? '',
        answered: false,
      };
      received.push(entry);
      const answer = () => {
        entry.answered = true;
        response.end('ok');
      };
      if (held) void held.then(answer);
      else if (stallMs > 0) setTimeout(answer, stallMs).unref();
      else answer();
    });
  });
  server.keepAliveTimeout = 1_000;
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    stall: (ms) => {
      stallMs = ms;
    },
    hold: (until) => {
      held = until;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
