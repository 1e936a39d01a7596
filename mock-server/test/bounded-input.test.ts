// Bounded input (docs/errors.md#request-size-and-depth): a body over the size limit is 413 in the error format,
// refused from its Content-Length or while it streams, and never read before the key is known; JSON nested deeper
// than the limit is 400 before anything changes; so is a number past its bounds in the spec (chainId, amounts). The
// server keeps answering everyone else meanwhile.
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type RunningMockServer } from '../src/adapters/node.js';
import { createMockServer } from '../src/index.js';
import { FROZEN_AT, newKey } from './support/keys.js';

const LIMIT = 64 * 1024;

interface RawAnswer {
  status: number;
  body: string;
}

function readAnswer(incoming: IncomingMessage): Promise<RawAnswer> {
  return new Promise((resolve) => {
    let body = '';
    incoming.setEncoding('utf8');
    incoming.on('data', (chunk: string) => (body += chunk));
    incoming.on('end', () => resolve({ status: incoming.statusCode ?? 0, body }));
  });
}

function nested(depth: number): unknown {
  let value: unknown = 'bottom';
  for (let i = 0; i < depth; i++) value = { next: value };
  return value;
}

describe('request bodies over HTTP', () => {
  let running: RunningMockServer;
  beforeAll(async () => {
    running = await startMockServer({ port: 0, maxBodyBytes: LIMIT, frozenClock: FROZEN_AT });
  });
  afterAll(() => running.close());

  const send = (key: string | undefined, method: string, path: string, body?: string) =>
    fetch(running.url + path, {
      method,
      headers: { ...(key ? { Authorization: `Bearer ${key}` } : {}), 'Content-Type': 'application/json' },
      body,
    });

  it('answers 413 in the error format to a body over the limit, and stores nothing', async () => {
    const key = newKey();
    const body = JSON.stringify({ email: 'ada@example.com', metadata: { note: 'x'.repeat(LIMIT) } });
    const answer = await send(key, 'POST', '/customers', body);
    expect(answer.status).toBe(413);
    expect(answer.headers.get('request-id')).toMatch(/^req_/);
    expect(await answer.json()).toEqual({
      error: { code: 'payload_too_large', message: expect.stringContaining(String(LIMIT)), details: { limit: LIMIT } },
    });
    expect(await (await send(key, 'GET', '/customers')).json()).toMatchObject({ data: [] });
    // A body just under the limit is read.
    const fits = JSON.stringify({ email: 'ada@example.com', metadata: { note: 'x'.repeat(LIMIT - 100) } });
    expect((await send(key, 'POST', '/customers', fits)).status).toBe(201);
  });

  it('stops reading a streamed body at the limit, answers 413 while the client still sends, and serves others meanwhile', async () => {
    const key = newKey();
    let sent = 0;
    let answeredAt = -1;
    const chunk = 'x'.repeat(16 * 1024);
    const upload = new Promise<RawAnswer>((resolve, reject) => {
      const outgoing = httpRequest(`${running.url}/customers`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' },
      });
      outgoing.on('response', (incoming) => {
        answeredAt = sent;
        resolve(readAnswer(incoming));
      });
      outgoing.on('error', reject);
      outgoing.write('{"email":"ada@example.com","metadata":{"note":"');
      // At most 4 MiB, one chunk every few milliseconds: the answer must come long before the end.
      const timer = setInterval(() => {
        if (sent >= 4 * 1024 * 1024 || answeredAt >= 0) {
          clearInterval(timer);
          outgoing.end('"}}');
          return;
        }
        outgoing.write(chunk);
        sent += chunk.length;
      }, 3);
    });
    // While the upload goes on, another client is answered.
    const other = newKey();
    const meanwhile = await send(other, 'POST', '/customers', JSON.stringify({ email: 'grace@example.com' }));
    expect(meanwhile.status).toBe(201);
    const answer = await upload;
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toMatchObject({ error: { code: 'payload_too_large' } });
    expect(answeredAt).toBeLessThan(4 * 1024 * 1024);
    expect(await (await send(key, 'GET', '/customers')).json()).toMatchObject({ data: [] });
  });

  it('answers a request without a valid key before reading its body', async () => {
    // Announces 10 MB and sends a few bytes, then nothing: the 401 cannot wait for the rest.
    const answer = await new Promise<RawAnswer>((resolve, reject) => {
      const outgoing = httpRequest(`${running.url}/customers`, {
        method: 'POST',
        headers: { Authorization: 'Bearer not-a-key', 'Content-Type': 'application/json', 'Content-Length': String(10_000_000) },
      });
      outgoing.on('response', (incoming) => resolve(readAnswer(incoming)));
      outgoing.on('error', reject);
      outgoing.write('{"email":');
      // Well inside the server's request timeout (30 s), which would otherwise be what answers.
      setTimeout(
        () => reject(new Error('no answer within 15 s: the body was awaited before the key was checked')),
        15_000,
      ).unref();
    });
    expect(answer).toEqual({ status: 401, body: '{"error":"unauthorized"}' });
  });

  it('lets go of a request whose client leaves mid-body, and keeps serving', async () => {
    const key = newKey();
    await new Promise<void>((resolve) => {
      const outgoing = httpRequest(`${running.url}/customers`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', 'Content-Length': '1000' },
      });
      outgoing.on('error', () => resolve());
      outgoing.write('{"email":"ada@example.com"', () => setTimeout(() => outgoing.destroy(), 50));
    });
    const answer = await send(key, 'GET', '/customers');
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ data: [] });
  });

  it('answers 413 from the announced length of a body that never arrives', async () => {
    const answer = await new Promise<RawAnswer>((resolve, reject) => {
      const outgoing = httpRequest(`${running.url}/customers`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${newKey()}`, 'Content-Type': 'application/json', 'Content-Length': String(LIMIT + 1) },
      });
      outgoing.on('response', (incoming) => resolve(readAnswer(incoming)));
      outgoing.on('error', reject);
      outgoing.write('{');
      setTimeout(() => reject(new Error('no answer within 15 s: the body was awaited')), 15_000).unref();
    });
    expect(answer.status).toBe(413);
  });

  it('refuses JSON nested deeper than the limit with 400 before storing anything, and keeps the organization working', async () => {
    const key = newKey();
    // The defect's own body: metadata nested 5,000 levels.
    const deep = `{"email":"ada@example.com","metadata":${'{"next":'.repeat(5_000)}"bottom"${'}'.repeat(5_000)}}`;
    const answer = await send(key, 'POST', '/customers', deep);
    expect(answer.status).toBe(400);
    expect(await answer.json()).toMatchObject({
      error: { code: 'invalid_request', details: { field: '/body', maxDepth: 64 } },
    });
    const customers = await send(key, 'GET', '/customers');
    expect(customers.status).toBe(200);
    expect(await customers.json()).toMatchObject({ data: [] });
    expect(running.mock.events.list({ apiKey: key })).toEqual([]);
  });
});

describe('request bodies in-process', () => {
  it('answers 413 and stops reading a web Request stream at the limit', async () => {
    const mock = createMockServer({ maxBodyBytes: LIMIT, frozenClock: FROZEN_AT });
    let pulled = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        if (pulled > 10_000) controller.close();
        else controller.enqueue(new Uint8Array(4096).fill(0x20));
      },
    });
    const answer = await mock.handle(
      new Request('http://127.0.0.1:4010/v1/customers', {
        method: 'POST',
        headers: { Authorization: `Bearer ${newKey()}`, 'Content-Type': 'application/json' },
        body: endless,
        duplex: 'half',
      } as RequestInit),
    );
    expect(answer.status).toBe(413);
    // 64 KiB is 16 chunks of 4 KiB: it stopped right after the limit, far from the stream's end.
    expect(pulled).toBeLessThan(40);
  });

  it('accepts nesting up to the limit and refuses one level more', async () => {
    const mock = createMockServer({ frozenClock: FROZEN_AT });
    const key = newKey();
    const post = (metadata: unknown) =>
      mock.handle(
        new Request('http://127.0.0.1:4010/v1/customers', {
          method: 'POST',
          headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ email: 'ada@example.com', metadata }),
        }),
      );
    // The body is level 1: metadata of 63 nested objects reaches level 64.
    expect((await post(nested(63))).status).toBe(201);
    expect((await post(nested(64))).status).toBe(400);
  });
});

describe('numbers past their bounds', () => {
  const mock = createMockServer({ frozenClock: FROZEN_AT });
  const key = newKey();
  const call = (method: string, path: string, body?: string) =>
    mock.handle(
      new Request(`http://127.0.0.1:4010/v1${path}`, {
        method,
        headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
        body,
      }),
    );

  // Written as JSON text: 1e308 and 9007199254740993 are what a client sends, not what JSON.stringify would write.
  it.each([
    ['1e308', 'must be <= 4503599627370476'],
    ['9007199254740993', 'must be <= 4503599627370476'],
    ['4503599627370477', 'must be <= 4503599627370476'],
    ['1e400', 'must be <= 4503599627370476'],
    ['0', 'must be >= 1'],
  ])(
    'refuses chainId %s on /simulate/deposits and on withdrawals, naming the field, and stores nothing',
    async (chainId, reason) => {
      const customer = (await (await call('POST', '/customers', JSON.stringify({ email: 'ada@example.com' }))).json()) as {
        id: string;
      };
      const deposit = await call(
        'POST',
        '/simulate/deposits',
        `{"customerId":"${customer.id}","amount":100,"chainId":${chainId}}`,
      );
      expect(deposit.status).toBe(400);
      expect(await deposit.json()).toEqual({
        error: { code: 'invalid_request', message: `body/chainId: ${reason}`, details: { field: '/body/chainId', reason } },
      });
      const withdrawal = await call(
        'POST',
        `/customers/${customer.id}/withdrawals`,
        `{"amount":100,"chainId":${chainId},"recipientAddress":"0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"}`,
      );
      expect(withdrawal.status).toBe(400);
      expect(((await withdrawal.json()) as { error: { details: { field: string } } }).error.details.field).toBe('/body/chainId');
      const balance = (await (await call('GET', `/customers/${customer.id}/balances`)).json()) as { available: number };
      expect(balance.available).toBe(0);
    },
  );

  it('accepts the largest chainId and echoes it exactly', async () => {
    const customer = (await (await call('POST', '/customers', JSON.stringify({ email: 'ada@example.com' }))).json()) as {
      id: string;
    };
    const deposit = await call(
      'POST',
      '/simulate/deposits',
      `{"customerId":"${customer.id}","amount":100,"chainId":4503599627370476}`,
    );
    expect(deposit.status).toBe(200);
    expect(await deposit.text()).toContain('"chainId":4503599627370476');
  });

  it('refuses an amount past its maximum', async () => {
    const customer = (await (await call('POST', '/customers', JSON.stringify({ email: 'ada@example.com' }))).json()) as {
      id: string;
    };
    const deposit = await call('POST', '/simulate/deposits', `{"customerId":"${customer.id}","amount":1e308}`);
    expect(deposit.status).toBe(400);
    expect(((await deposit.json()) as { error: { details: { field: string } } }).error.details.field).toBe('/body/amount');
  });
});
