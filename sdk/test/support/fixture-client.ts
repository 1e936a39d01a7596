import type { APIPromise } from '../../src/core/api-promise.js';
import { APIResource, queryOf } from '../../src/core/api-resource.js';
import { ClientCore } from '../../src/core/client-core.js';
import type { ClientOptions, RequestOptions } from '../../src/core/client-options.js';
import type { PagePromise } from '../../src/core/pagination.js';

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

/** The fixture API's operations, declared as the SDK's resources declare theirs. */
class Things extends APIResource<FixturePaths> {
  create(body: { name: string }, options?: RequestOptions): APIPromise<Thing> {
    return this.send('post', '/things', { body }, options);
  }
  get(thingId: string, options?: RequestOptions): APIPromise<Thing> {
    return this.send('get', '/things/{thingId}', { path: { thingId } }, options);
  }
  list(query?: { limit?: number; cursor?: string }, options?: RequestOptions): PagePromise<Thing> {
    return this.sendPage('/things', { query: queryOf(query) }, options);
  }
}

export function fixtureClient(options: Partial<ClientOptions> = {}) {
  const core = new ClientCore<FixturePaths>({ apiKey: API_KEY, baseUrl: BASE_URL, logLevel: 'off', ...options }, (apiKey) => ({
    Authorization: `Bearer ${apiKey}`,
  }));
  const things = new Things(core);
  return { core, create: things.create, get: things.get, list: things.list };
}
