// A request that reaches no server, over the real network stack (no MSW): the error names the URL and the system's
// code, which Node's `TypeError: fetch failed` keeps on its cause.
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { Cardrail, ConnectionError } from '../src/index.js';

/** A loopback port that nothing listens on: one the system handed out, then closed again. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('connection errors', () => {
  it('carry the URL and the system code, and say what to check', async () => {
    const port = await closedPort();
    const baseUrl = `http://127.0.0.1:${port}/v1`;
    const cardrail = new Cardrail({ apiKey: 'sk_test_connectionErrors1', baseUrl, maxRetries: 0, logLevel: 'off' });
    const error = await cardrail.cards.retrieve('card_123').then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(ConnectionError);
    const failure = error as ConnectionError;
    expect(failure.code).toBe('connection_error');
    expect(failure.details).toEqual({ url: `${baseUrl}/cards/card_123`, systemCode: 'ECONNREFUSED' });
    expect(failure.message).toBe(
      `Connection error: fetch failed (ECONNREFUSED, ${baseUrl}/cards/card_123): nothing listens there; check the baseUrl, or start the server (the local mock: npx cardrail-mock)`,
    );
  });
});
