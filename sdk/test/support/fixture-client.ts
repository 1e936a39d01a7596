import { ClientCore } from '../../src/core/client-core.js';
import type { ClientOptions, RequestOptions } from '../../src/core/client-options.js';

/** A two-operation API, enough to exercise the core without the generated Cardrail types. */
export interface FixturePaths {
  '/things': {
    get: {
      parameters: { query?: { limit?: number; cursor?: string } };
      responses: { 200: { content: { 'application/json': { data: Thing[]; nextCursor: string | null; hasMore: boolean } } } };
    };
    post: {
      requestBody: { content: { 'application/json': { name: string } } };
      responses: { 201: { content: { 'application/json': Thing } } };
    };
  };
  '/things/{thingId}': {
    get: { parameters: { path: { thingId: string } }; responses: { 200: { content: { 'application/json': Thing } } } };
  };
}
export interface Thing {
  id: string;
  name: string;
}

export const BASE_URL = 'http://127.0.0.1:4010/v1';
export const API_KEY = 'sk_test_fixtureKey123';

/** The fixture API's operations, sent through the core as the resources send theirs (typed here by hand). */
export function fixtureClient(options: Partial<ClientOptions> = {}) {
  const core = new ClientCore<FixturePaths>(
    { apiKey: API_KEY, baseUrl: BASE_URL, logLevel: 'off', ...options },
    { variant: 'customer', authHeaders: (apiKey) => ({ Authorization: `Bearer ${apiKey}` }) },
  );
  return {
    core,
    create: (body: { name: string }, requestOptions?: RequestOptions) =>
      core.send<Thing>('post', '/things', { body }, requestOptions),
    get: (thingId: string, requestOptions?: RequestOptions) =>
      core.send<Thing>('get', '/things/{thingId}', { path: { thingId } }, requestOptions),
    list: (query?: { limit?: number; cursor?: string }, requestOptions?: RequestOptions) =>
      core.sendPage<Thing>('/things', { query }, requestOptions),
  };
}
