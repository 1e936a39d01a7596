import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { unhandled } from '../../scripts/vitest-msw.mjs';
import { CardrailError, NotFoundError } from '../src/errors.js';
import { API_KEY, BASE_URL, fixtureClient } from './support/fixture-client.js';

// This client exists before MSW patches fetch: the SDK must look fetch up per request to be intercepted.
const earlyClient = fixtureClient();
const server = setupServer();
server.listen(unhandled('error'));
afterAll(() => server.close());

function echo() {
  const requests: Request[] = [];
  server.resetHandlers(
    http.all(`${BASE_URL}/*`, ({ request }) => {
      requests.push(request.clone());
      return HttpResponse.json(
        { id: 'thing_1', name: 'echo' },
        { status: request.method === 'POST' ? 201 : 200, headers: { 'Request-Id': 'req_echo' } },
      );
    }),
  );
  return requests;
}

describe('client core', () => {
  it('is intercepted by MSW even when created before server.listen()', async () => {
    const requests = echo();
    await expect(earlyClient.get('thing_1')).resolves.toEqual({ id: 'thing_1', name: 'echo' });
    const { data } = await earlyClient.core.raw.GET('/things/{thingId}', { params: { path: { thingId: 'thing_2' } } });
    expect(data).toEqual({ id: 'thing_1', name: 'echo' });
    expect(requests.map((request) => request.url)).toEqual([`${BASE_URL}/things/thing_1`, `${BASE_URL}/things/thing_2`]);
  });

  it('sends the auth header, default headers and per-call headers to the base URL', async () => {
    const requests = echo();
    const client = fixtureClient({ defaultHeaders: { 'X-Team': 'payments' } });
    await client.get('thing_1', { headers: { 'X-Trace': 't1' } });
    const sent = requests[0]!;
    expect(sent.url).toBe(`${BASE_URL}/things/thing_1`);
    expect(sent.headers.get('authorization')).toBe(`Bearer ${API_KEY}`);
    expect(sent.headers.get('x-team')).toBe('payments');
    expect(sent.headers.get('x-trace')).toBe('t1');
    expect(sent.headers.get('idempotency-key')).toBeNull();
  });

  it('tolerates a trailing slash on baseUrl', async () => {
    const requests = echo();
    await fixtureClient({ baseUrl: `${BASE_URL}/` }).get('thing_1');
    expect(requests[0]!.url).toBe(`${BASE_URL}/things/thing_1`);
  });

  it('uses the fetch given in options', async () => {
    const custom = vi.fn(async (request: Request) => HttpResponse.json({ id: request.url, name: 'custom' }));
    const thing = await fixtureClient({ fetch: custom }).get('thing_9');
    expect(custom).toHaveBeenCalledTimes(1);
    expect(thing).toEqual({ id: `${BASE_URL}/things/thing_9`, name: 'custom' });
  });

  it('derives the mode from the key prefix and refuses other keys at construction', () => {
    expect(fixtureClient().core.mode).toBe('test');
    expect(fixtureClient({ apiKey: 'sk_live_abcdefgh12' }).core.mode).toBe('live');
    for (const apiKey of ['pk_test_abcdefgh', 'abc', 'sk_prod_abcdefgh', 'SK_TEST_abcdefgh']) {
      expect(() => fixtureClient({ apiKey })).toThrow(expect.objectContaining({ code: 'invalid_api_key' }) as Error);
    }
    expect(() => fixtureClient({ apiKey: 'sk_oops_secret_value' })).toThrow(/sk_test_/);
    try {
      fixtureClient({ apiKey: 'sk_oops_secret_value' });
    } catch (error) {
      expect(error).toBeInstanceOf(CardrailError);
      expect((error as Error).message).not.toContain('secret_value');
    }
  });

  it('reads CARDRAIL_API_KEY when no key is passed, and explains a missing key', () => {
    vi.stubEnv('CARDRAIL_API_KEY', 'sk_live_fromEnvironment1');
    try {
      expect(fixtureClient({ apiKey: undefined }).core.mode).toBe('live');
      vi.stubEnv('CARDRAIL_API_KEY', '');
      expect(() => fixtureClient({ apiKey: undefined })).toThrow(/CARDRAIL_API_KEY/);
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it('refuses a negative maxRetries, and a timeoutMs that is not a positive integer, at construction and per call', async () => {
    expect(() => fixtureClient({ maxRetries: -1 })).toThrow(/maxRetries/);
    expect(() => fixtureClient({ timeoutMs: 1.5 })).toThrow(/timeoutMs/);
    // A zero timeout would abort every attempt before it is sent.
    for (const timeoutMs of [0, -1, Number.NaN]) {
      expect(() => fixtureClient({ timeoutMs })).toThrow(
        expect.objectContaining({ code: 'invalid_option', message: expect.stringMatching(/timeoutMs/) }),
      );
    }
    expect(() => fixtureClient({ maxRetries: 0, timeoutMs: 1 })).not.toThrow();
    const requests = echo();
    await expect(Promise.resolve().then(() => fixtureClient().get('thing_1', { timeoutMs: 0 }))).rejects.toMatchObject({
      code: 'invalid_option',
    });
    expect(requests).toHaveLength(0);
  });

  it('returns data, the raw Response and the request id from withResponse()', async () => {
    echo();
    const { data, response, requestId } = await fixtureClient().get('thing_1').withResponse();
    expect(data).toEqual({ id: 'thing_1', name: 'echo' });
    expect(response).toBeInstanceOf(Response);
    expect(response.headers.get('content-type')).toContain('application/json');
    expect(requestId).toBe('req_echo');
  });

  it('sends the body serialised once and hands back the Response it received, read once', async () => {
    const answered: Response[] = [];
    const sent: { body: string; contentType: string | null }[] = [];
    const fetch = async (request: Request) => {
      sent.push({ body: await request.text(), contentType: request.headers.get('content-type') });
      const response = HttpResponse.json({ id: 'thing_1', name: 'a' }, { status: 201 });
      answered.push(response);
      return response;
    };
    const { data, response } = await fixtureClient({ fetch }).create({ name: 'a' }).withResponse();
    expect(sent).toEqual([{ body: '{"name":"a"}', contentType: 'application/json' }]);
    expect(data).toEqual({ id: 'thing_1', name: 'a' });
    expect(response).toBe(answered[0]);
    expect(response.bodyUsed).toBe(true);
  });

  it('rejects withResponse() with the typed error too', async () => {
    server.resetHandlers(
      http.get(`${BASE_URL}/things/:id`, () =>
        HttpResponse.json({ error: 'not_found' }, { status: 404, headers: { 'Request-Id': 'req_404' } }),
      ),
    );
    await expect(fixtureClient().get('nope').withResponse()).rejects.toMatchObject({
      constructor: NotFoundError,
      requestId: 'req_404',
    });
  });

  it('logs requests at debug level without ever writing the API key', async () => {
    echo();
    const logger = { error: vi.fn(), warn: vi.fn(), info: vi.fn(), debug: vi.fn() };
    await fixtureClient({ logLevel: 'debug', logger }).create({ name: 'a' });
    expect(logger.debug).toHaveBeenCalled();
    const logged = JSON.stringify([logger.debug.mock.calls, logger.info.mock.calls]);
    expect(logged).toContain('POST');
    expect(logged).toContain('[redacted]');
    expect(logged).not.toContain(API_KEY);
    expect(logged).not.toContain(API_KEY.slice('sk_test_'.length));
  });

  it('logs nothing below the chosen level', async () => {
    echo();
    const logger = { error: vi.fn(), warn: vi.fn(), info: vi.fn(), debug: vi.fn() };
    await fixtureClient({ logLevel: 'warn', logger }).get('thing_1');
    expect(logger.debug).not.toHaveBeenCalled();
    expect(logger.info).not.toHaveBeenCalled();
  });
});
