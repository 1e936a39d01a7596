import { APIResource } from '../../src/core/api-resource.js';
import { ClientCore } from '../../src/core/client-core.js';
import type { ClientOptions } from '../../src/core/client-options.js';

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
  readonly create = this.callWithBody('post', '/things');
  readonly get = this.call('get', '/things/{thingId}', (thingId: string) => ({ thingId }));
  readonly list = this.paged('/things');
}

export function fixtureClient(options: Partial<ClientOptions> = {}) {
  const core = new ClientCore<FixturePaths>({ apiKey: API_KEY, baseUrl: BASE_URL, logLevel: 'off', ...options }, (apiKey) => ({
    Authorization: `Bearer ${apiKey}`,
  }));
  const things = new Things(core);
  return { core, create: things.create, get: things.get, list: things.list };
}
