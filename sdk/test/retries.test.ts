import { delay, http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ConnectionError, InternalServerError, RateLimitError, RequestAbortedError } from '../src/errors.js';
import { BASE_URL, fixtureClient } from './support/fixture-client.js';
import { useMswServer } from './support/msw.js';

const server = useMswServer();

interface Seen {
  idempotencyKey: string | null;
  body: string;
}

/** Answers the scripted responses in order (the last one repeats) and records every attempt. */
function script(method: 'get' | 'post', responses: Array<() => Response | Promise<Response>>): Seen[] {
  const seen: Seen[] = [];
  const path = method === 'post' ? `${BASE_URL}/things` : `${BASE_URL}/things/:thingId`;
  server.use(
    http[method](path, async ({ request }) => {
      seen.push({ idempotencyKey: request.headers.get('idempotency-key'), body: await request.text() });
      const next = responses[Math.min(seen.length - 1, responses.length - 1)];
      return next!();
    }),
  );
  return seen;
}

const ok = () => HttpResponse.json({ id: 'thing_1', name: 'a' }, { status: 201 });
const rateLimited = (headers: Record<string, string>) => () =>
  HttpResponse.json({ error: { code: 'rate_limited', message: 'Slow down', details: null } }, { status: 429, headers });
const status = (code: number) => () => HttpResponse.json({ error: { code: 'x', message: 'x', details: null } }, { status: code });

/**
 * Lets pending promise callbacks and MSW's handler run without moving the fake clock. msw 3 hands a request to its
 * handlers across a few timer turns of its own (also faked here), so a few zero-length turns are run.
 */
const settle = async () => {
  for (let turn = 0; turn < 10; turn++) await vi.advanceTimersByTimeAsync(0);
};
/** Moves the fake clock, then settles as above. */
const advance = async (ms: number) => {
  await vi.advanceTimersByTimeAsync(ms);
  await settle();
};

describe('retries with fake timers', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('waits for Retry-After seconds and sends the same generated Idempotency-Key and body on every attempt', async () => {
    const seen = script('post', [rateLimited({ 'Retry-After': '3' }), rateLimited({ 'Retry-After': '3' }), ok]);
    const pending = fixtureClient().create({ name: 'a' });

    await settle();
    expect(seen).toHaveLength(1);
    await advance(2_999);
    expect(seen).toHaveLength(1);
    await advance(1);
    expect(seen).toHaveLength(2);
    await advance(3_000);

    await expect(pending).resolves.toEqual({ id: 'thing_1', name: 'a' });
    expect(seen).toHaveLength(3);
    expect(seen[0]!.idempotencyKey).toMatch(/^idk_[0-9a-f-]{32,36}$/);
    expect(new Set(seen.map((attempt) => attempt.idempotencyKey)).size).toBe(1);
    expect(seen.map((attempt) => attempt.body)).toEqual(Array(3).fill('{"name":"a"}'));
  });

  it("uses the caller's idempotency key on each attempt and a new generated key per call", async () => {
    const seen = script('post', [status(503), ok]);
    const first = fixtureClient().create({ name: 'a' }, { idempotencyKey: 'my-key-1' });
    await vi.runAllTimersAsync();
    await first;
    expect(seen.map((attempt) => attempt.idempotencyKey)).toEqual(['my-key-1', 'my-key-1']);

    const second = fixtureClient().create({ name: 'a' });
    const third = fixtureClient().create({ name: 'a' });
    await vi.runAllTimersAsync();
    await Promise.all([second, third]);
    expect(seen[2]!.idempotencyKey).not.toBe(seen[3]!.idempotencyKey);
  });

  it('obeys an HTTP-date Retry-After', async () => {
    const seen = script('get', [() => rateLimited({ 'Retry-After': new Date(Date.now() + 10_000).toUTCString() })(), ok]);
    const pending = fixtureClient().get('thing_1');
    await settle();
    await advance(9_000);
    expect(seen).toHaveLength(1);
    await advance(1_000);
    expect(seen).toHaveLength(2);
    await expect(pending).resolves.toMatchObject({ id: 'thing_1' });
  });

  it('prefers retry-after-ms over Retry-After', async () => {
    const seen = script('get', [rateLimited({ 'retry-after-ms': '250', 'Retry-After': '30' }), ok]);
    const pending = fixtureClient().get('thing_1');
    await settle();
    await advance(250);
    expect(seen).toHaveLength(2);
    await pending;
  });

  it('waits at most 60 s whatever Retry-After asks', async () => {
    const seen = script('get', [rateLimited({ 'Retry-After': '3600' }), ok]);
    const pending = fixtureClient().get('thing_1');
    await settle();
    await advance(59_999);
    expect(seen).toHaveLength(1);
    await advance(1);
    expect(seen).toHaveLength(2);
    await pending;
  });

  it('backs off exponentially (0.5 s doubling, up to 25 % jitter) without Retry-After', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0);
    const seen = script('get', [status(500), status(500), status(500), ok]);
    const pending = fixtureClient({ maxRetries: 3 }).get('thing_1');
    await settle();
    await advance(499);
    expect(seen).toHaveLength(1);
    await advance(1);
    expect(seen).toHaveLength(2);
    await advance(1_000);
    expect(seen).toHaveLength(3);
    await advance(1_999);
    expect(seen).toHaveLength(3);
    await advance(1);
    expect(seen).toHaveLength(4);
    await pending;
  });

  it.each([408, 409, 429, 500, 502, 503, 504])('retries status %i twice by default, then throws', async (code) => {
    const seen = script('get', [status(code)]);
    const pending = fixtureClient()
      .get('thing_1')
      .catch((error: unknown) => error);
    await vi.runAllTimersAsync();
    const error = await pending;
    expect(seen).toHaveLength(3);
    expect(error).toMatchObject({ status: code });
  });

  it.each([400, 401, 404, 422, 501])('does not retry status %i', async (code) => {
    const seen = script('get', [status(code)]);
    const pending = fixtureClient()
      .get('thing_1')
      .catch((error: unknown) => error);
    await vi.runAllTimersAsync();
    await pending;
    expect(seen).toHaveLength(1);
  });

  it('lets a call override maxRetries, and 0 turns retrying off', async () => {
    const seen = script('get', [status(503)]);
    const one = fixtureClient()
      .get('thing_1', { maxRetries: 4 })
      .catch((error: unknown) => error);
    await vi.runAllTimersAsync();
    expect(await one).toBeInstanceOf(InternalServerError);
    expect(seen).toHaveLength(5);
    const none = fixtureClient({ maxRetries: 5 })
      .get('thing_1', { maxRetries: 0 })
      .catch((error: unknown) => error);
    await vi.runAllTimersAsync();
    await none;
    expect(seen).toHaveLength(6);
  });

  it("keeps each call's options to that call while calls of one client run at once", async () => {
    const attempts = new Map<string, Array<string | null>>();
    server.use(
      http.all(`${BASE_URL}/*`, ({ request }) => {
        const target = `${request.method} ${new URL(request.url).pathname}`;
        const seen = attempts.get(target) ?? [];
        seen.push(request.headers.get('idempotency-key'));
        attempts.set(target, seen);
        return request.method === 'POST' && seen.length > 1 ? ok() : status(503)();
      }),
    );
    const client = fixtureClient();
    const once = client.get('thing_a', { maxRetries: 0 }).catch((error: unknown) => error);
    const byDefault = client.get('thing_b').catch((error: unknown) => error);
    const keyed = client.create({ name: 'a' }, { idempotencyKey: 'create-keyed' });
    await vi.runAllTimersAsync();
    expect(await once).toBeInstanceOf(InternalServerError);
    expect(await byDefault).toBeInstanceOf(InternalServerError);
    await keyed;
    expect(attempts.get('GET /v1/things/thing_a')).toHaveLength(1);
    expect(attempts.get('GET /v1/things/thing_b')).toHaveLength(3);
    expect(attempts.get('POST /v1/things')).toEqual(['create-keyed', 'create-keyed']);
  });

  it('retries a connection error', async () => {
    const seen = script('get', [() => HttpResponse.error(), ok]);
    const pending = fixtureClient().get('thing_1');
    await vi.runAllTimersAsync();
    await expect(pending).resolves.toMatchObject({ id: 'thing_1' });
    expect(seen).toHaveLength(2);
  });

  it('throws the last ConnectionError once retries are exhausted', async () => {
    const seen = script('get', [() => HttpResponse.error()]);
    const pending = fixtureClient()
      .get('thing_1')
      .catch((error: unknown) => error);
    await vi.runAllTimersAsync();
    expect(await pending).toBeInstanceOf(ConnectionError);
    expect(seen).toHaveLength(3);
  });

  it('surfaces the RateLimitError with its headers once retries are exhausted', async () => {
    script('get', [rateLimited({ 'Retry-After': '1', 'RateLimit-Remaining': '0' })]);
    const pending = fixtureClient({ maxRetries: 1 })
      .get('thing_1')
      .catch((error: unknown) => error);
    await vi.runAllTimersAsync();
    const error = (await pending) as RateLimitError;
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error.headers?.get('ratelimit-remaining')).toBe('0');
  });

  it('does not retry after the caller aborts during the backoff sleep', async () => {
    const seen = script('get', [status(503)]);
    const controller = new AbortController();
    const pending = fixtureClient()
      .get('thing_1', { signal: controller.signal })
      .catch((error: unknown) => error);
    await settle();
    expect(seen).toHaveLength(1);
    controller.abort();
    const error = await pending;
    expect(error).toBeInstanceOf(RequestAbortedError);
    await vi.runAllTimersAsync();
    expect(seen).toHaveLength(1);
  });
});

describe('abort and timeout (real timers)', () => {
  it('cancels an attempt in flight at once with RequestAbortedError and does not retry', async () => {
    let attempts = 0;
    server.use(
      http.get(`${BASE_URL}/things/:thingId`, async () => {
        attempts += 1;
        await delay('infinite');
        return HttpResponse.json({});
      }),
    );
    const controller = new AbortController();
    const pending = fixtureClient({ maxRetries: 5 }).get('thing_1', { signal: controller.signal });
    await vi.waitFor(() => expect(attempts).toBe(1));
    controller.abort();
    const error = await pending.catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(RequestAbortedError);
    expect(error).not.toBeInstanceOf(ConnectionError);
    expect((error as RequestAbortedError).code).toBe('request_aborted');
    expect(attempts).toBe(1);
  });

  it('sends nothing when the signal is already aborted', async () => {
    const seen = script('get', [ok]);
    const error = await fixtureClient()
      .get('thing_1', { signal: AbortSignal.abort() })
      .catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(RequestAbortedError);
    expect(seen).toHaveLength(0);
  });

  it('retries an attempt that timed out, and the timeout applies to each attempt', async () => {
    let attempts = 0;
    server.use(
      http.get(`${BASE_URL}/things/:thingId`, async () => {
        attempts += 1;
        if (attempts === 1) await delay('infinite');
        return HttpResponse.json({ id: 'thing_1', name: 'late' });
      }),
    );
    vi.spyOn(Math, 'random').mockReturnValue(1); // shortest backoff, 375 ms
    await expect(fixtureClient().get('thing_1', { timeoutMs: 50 })).resolves.toMatchObject({ name: 'late' });
    expect(attempts).toBe(2);
  });
});
