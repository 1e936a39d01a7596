import { delay, http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import {
  APIError,
  AuthenticationError,
  BadRequestError,
  CardrailError,
  ConflictError,
  ConnectionError,
  InternalServerError,
  InvalidResponseError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  TimeoutError,
  UnprocessableEntityError,
} from '../src/errors.js';
import { BASE_URL, fixtureClient } from './support/fixture-client.js';
import { useMswServer } from './support/msw.js';

const server = useMswServer();

async function errorOf(promise: Promise<unknown>): Promise<CardrailError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(CardrailError);
  return error as CardrailError;
}

function answer(status: number, body: unknown, headers: Record<string, string> = {}) {
  server.use(
    http.get(`${BASE_URL}/things/:thingId`, () =>
      HttpResponse.json(body as Record<string, unknown>, { status, headers: { 'Request-Id': 'req_abc123', ...headers } }),
    ),
  );
}

const client = fixtureClient({ maxRetries: 0 });

describe('API errors', () => {
  const cases = [
    [400, BadRequestError, 'invalid_request'],
    [401, AuthenticationError, 'unauthorized'],
    [403, PermissionDeniedError, 'forbidden'],
    [404, NotFoundError, 'not_found'],
    [409, ConflictError, 'conflict'],
    [422, UnprocessableEntityError, 'unprocessable'],
    [429, RateLimitError, 'rate_limited'],
    [500, InternalServerError, 'internal_error'],
    [503, InternalServerError, 'unavailable'],
    [418, APIError, 'teapot'],
  ] as const;

  describe.each(cases)('status %i', (status, ErrorClass, code) => {
    it(`parses the object form {error:{code,message,details}} into ${ErrorClass.name}`, async () => {
      answer(status, { error: { code, message: 'Something specific went wrong', details: { field: 'name' } } });
      const error = await errorOf(client.get('thing_1'));
      expect(error).toBeInstanceOf(ErrorClass);
      expect(error).toBeInstanceOf(APIError);
      expect(error.name).toBe(ErrorClass.name);
      expect(error).toMatchObject({ status, code, details: { field: 'name' }, requestId: 'req_abc123' });
      expect(error.message).toBe(`${status} Something specific went wrong`);
      expect(error.headers?.get('request-id')).toBe('req_abc123');
    });

    it(`parses the string form {error:"${code}"} into ${ErrorClass.name} with the same fields`, async () => {
      answer(status, { error: code });
      const error = await errorOf(client.get('thing_1'));
      expect(error).toBeInstanceOf(ErrorClass);
      expect(error).toMatchObject({ status, code, details: null, requestId: 'req_abc123' });
      expect(error.message).toBe(`${status} ${code.replaceAll('_', ' ')}`);
    });
  });

  it("adds the mock's Cardrail-Hint to the message of a 401 or 404, keeping code and status", async () => {
    const hint = 'A pk_ (publishable) key cannot call the API: use a secret key.';
    answer(401, { error: 'unauthorized' }, { 'Cardrail-Hint': hint });
    const unauthorized = await errorOf(client.get('thing_1'));
    expect(unauthorized).toBeInstanceOf(AuthenticationError);
    expect(unauthorized).toMatchObject({ status: 401, code: 'unauthorized', message: `401 unauthorized: ${hint}` });
    answer(404, { error: 'not_found' }, { 'Cardrail-Hint': "The API's paths start with /v1: request /v1/things/thing_1." });
    expect((await errorOf(client.get('thing_1'))).message).toBe(
      "404 not found: The API's paths start with /v1: request /v1/things/thing_1.",
    );
    // A hint is text from a response: a key in it is redacted like any error text.
    answer(401, { error: 'unauthorized' }, { 'Cardrail-Hint': 'The key sk_test_abcdefghijklmnop was revoked.' });
    expect((await errorOf(client.get('thing_1'))).message).not.toContain('abcdefghijklmnop');
  });

  it('gives details null when the object form has details null', async () => {
    answer(400, { error: { code: 'invalid_request', message: 'name is required', details: null } });
    expect(await errorOf(client.get('thing_1'))).toMatchObject({ code: 'invalid_request', details: null });
  });

  it('still produces a typed error from a body that is not JSON', async () => {
    server.use(http.get(`${BASE_URL}/things/:thingId`, () => new HttpResponse('<html>Bad gateway</html>', { status: 502 })));
    const error = await errorOf(client.get('thing_1'));
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error).toMatchObject({ status: 502, code: 'api_error', requestId: undefined });
    expect(error.message).toContain('Bad gateway');
  });
});

describe('errors without a response', () => {
  it('throws ConnectionError when the network fails', async () => {
    server.use(http.get(`${BASE_URL}/things/:thingId`, () => HttpResponse.error()));
    const error = await errorOf(client.get('thing_1'));
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).toMatchObject({ code: 'connection_error', status: undefined });
  });

  it('throws TimeoutError, a ConnectionError, when an attempt exceeds timeoutMs', async () => {
    server.use(
      http.get(`${BASE_URL}/things/:thingId`, async () => {
        await delay('infinite');
        return HttpResponse.json({});
      }),
    );
    const error = await errorOf(client.get('thing_1', { timeoutMs: 20 }));
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.code).toBe('timeout');
  });
});

describe('success responses whose body is not JSON', () => {
  it('throws InvalidResponseError (an APIError) with status, requestId and headers instead of a SyntaxError, without retrying', async () => {
    let attempts = 0;
    server.use(
      http.post(`${BASE_URL}/things`, () => {
        attempts += 1;
        return new HttpResponse('<html>Welcome to the hotel wifi</html>', {
          status: 201,
          headers: { 'Content-Type': 'text/html', 'Request-Id': 'req_html' },
        });
      }),
    );
    const error = await errorOf(fixtureClient().create({ name: 'a' }));
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect(error).toBeInstanceOf(APIError);
    expect(error).not.toBeInstanceOf(SyntaxError);
    expect(error).toMatchObject({ name: 'InvalidResponseError', status: 201, code: 'invalid_response', requestId: 'req_html' });
    expect(error.headers?.get('content-type')).toBe('text/html');
    expect(error.message).toContain('hotel wifi');
    expect(error.cause).toBeInstanceOf(SyntaxError);
    expect(attempts).toBe(1);
  });

  it('rejects withResponse() and a list page the same way', async () => {
    server.use(
      http.get(
        `${BASE_URL}/things/:thingId`,
        () => new HttpResponse('{"id":"thing_1",', { status: 200, headers: { 'Request-Id': 'req_cut' } }),
      ),
      http.get(`${BASE_URL}/things`, () => new HttpResponse('not json', { status: 200 })),
    );
    await expect(client.get('thing_1').withResponse()).rejects.toMatchObject({
      constructor: InvalidResponseError,
      status: 200,
      requestId: 'req_cut',
    });
    await expect(client.list().toArray({ limit: 5 })).rejects.toBeInstanceOf(InvalidResponseError);
  });

  it('keeps secrets out of the body excerpt in the message', async () => {
    server.use(
      http.get(
        `${BASE_URL}/things/:thingId`,
        () => new HttpResponse('secret: whsec_abcdefABCDEF0123456789 key sk_live_abc123 <', { status: 200 }),
      ),
    );
    const error = await errorOf(client.get('thing_1'));
    expect(error.message).toContain('whsec_[redacted]');
    expect(error.message).not.toContain('abcdefABCDEF');
    expect(error.message).not.toContain('sk_live_abc123');
  });

  it('reads an empty success body as no data', async () => {
    server.use(http.get(`${BASE_URL}/things/:thingId`, () => new HttpResponse('', { status: 200 })));
    await expect(client.get('thing_1')).resolves.toBeUndefined();
  });
});
