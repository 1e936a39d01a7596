import type { MockServer } from '../composition/mock-server.js';

/** One API call to replay at start; `ref` names its answer for `{{ref.field}}` placeholders in later calls. */
export interface FixtureRequest {
  /** `GET`, `POST`, `PUT`, `PATCH` or `DELETE`. */
  method: string;
  /** Path below /v1, e.g. `/customers`. May contain placeholders. */
  path: string;
  /** The JSON body; strings may contain placeholders. */
  body?: unknown;
  /** Key for this call; default: the file's `apiKey`. */
  apiKey?: string;
  /** `customer` (Authorization: Bearer, default) or `user` (Api-Key). */
  variant?: 'customer' | 'user';
  /** Names this call's answer for `{{ref.field}}` placeholders in later calls. */
  ref?: string;
}

/**
 * Objects to preload, as the API calls that create them, so fixtures follow every rule of the mock (validation,
 * events, defaults) and survive spec changes. With `seed`, ids are the same on every start.
 */
export interface Fixtures {
  /** The key of every call that names none. */
  apiKey?: string;
  /** Makes the ids the same on every start (see `MockServerOptions.seed`). */
  seed?: string;
  /** The calls, replayed in order. */
  requests: FixtureRequest[];
}

/**
 * A fixture call that could not be replayed. `pointer` is the JSON pointer of the place in the fixtures that failed
 * (`/requests/2/body/email`), `reason` what went wrong there.
 */
export class FixtureError extends Error {
  /** `'FixtureError'`. */
  override name = 'FixtureError';
  /**
   * @param pointer - Where in the fixtures the failure is, as a JSON pointer.
   * @param reason - What went wrong there.
   */
  constructor(
    readonly pointer: string,
    readonly reason: string,
  ) {
    super(`Fixture ${pointer}: ${reason}`);
  }
}

const escapePointer = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');

/** A `{{ref.field}}` placeholder: the name of an earlier request's `ref`, then the fields to walk in its answer. */
export const FIXTURE_PLACEHOLDER = /\{\{\s*([A-Za-z0-9_]+)((?:\.[A-Za-z0-9_]+)*)\s*\}\}/g;

/**
 * Replays the fixture calls in order, outside the rate limit; a call that does not answer 2xx stops the load with a
 * `FixtureError` at its place. Resolves with the answers of the calls that have a `ref`.
 *
 * @example
 * ```ts
 * const mock = createMockServer({ seed: 'demo' });
 * const refs = await loadFixtures(mock, {
 *   apiKey: 'sk_test_example01',
 *   requests: [
 *     { ref: 'ada', method: 'POST', path: '/customers', body: { email: 'ada@example.com' } },
 *     { method: 'POST', path: '/agents', body: { customerId: '{{ada.id}}', name: 'Buyer' } },
 *   ],
 * });
 * ```
 */
export async function loadFixtures(
  server: MockServer,
  fixtures: Fixtures,
  baseUrl = 'http://127.0.0.1:4010/v1',
): Promise<Record<string, unknown>> {
  const refs: Record<string, unknown> = {};
  const substitute = (value: unknown, pointer: string): unknown => {
    if (typeof value === 'string') {
      return value.replace(FIXTURE_PLACEHOLDER, (_, name: string, path: string) => {
        let current: unknown = refs[name];
        // A reference walks the JSON of an earlier answer; a step that is not an object ends as undefined.
        for (const key of path.split('.').filter(Boolean)) current = (current as Record<string, unknown> | undefined)?.[key];
        if (current === undefined) throw new FixtureError(pointer, `placeholder {{${name}${path}}} has no value`);
        return String(current);
      });
    }
    if (Array.isArray(value)) return value.map((item, index) => substitute(item, `${pointer}/${index}`));
    if (value !== null && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substitute(v, `${pointer}/${escapePointer(k)}`)]));
    }
    return value;
  };
  for (const [index, call] of fixtures.requests.entries()) {
    const at = `/requests/${index}`;
    const apiKey = call.apiKey ?? fixtures.apiKey;
    if (!apiKey) throw new FixtureError(at, 'no apiKey, and the fixtures have no default apiKey');
    const headers: Record<string, string> =
      call.variant === 'user' ? { 'Api-Key': apiKey } : { Authorization: `Bearer ${apiKey}` };
    if (call.body !== undefined) headers['Content-Type'] = 'application/json';
    const response = await server.preload(
      new Request(baseUrl + String(substitute(call.path, `${at}/path`)), {
        method: call.method.toUpperCase(),
        headers,
        body: call.body === undefined ? undefined : JSON.stringify(substitute(call.body, `${at}/body`)),
      }),
    );
    // json() is typed `any`; the answer is read as unknown.
    const answer = (await response.json()) as unknown;
    if (response.status < 200 || response.status >= 300) {
      // A validation error names the field as a pointer into the request (`/body/email`): the same place in the file.
      const error = (answer as { error?: string | { code?: string; message?: string; details?: { field?: unknown } } } | null)
        ?.error;
      const field = typeof error === 'object' ? error.details?.field : undefined;
      const pointer = typeof field === 'string' && field.startsWith('/body/') ? at + field : at;
      const reason = typeof error === 'object' ? `${error.code}: ${error.message}` : (error ?? JSON.stringify(answer));
      // The mock's guess at the cause (a path starting /v1, a key of the wrong format), when it has one.
      const hint = response.headers.get('Cardrail-Hint');
      const because = hint === null ? '' : ` (${hint})`;
      throw new FixtureError(pointer, `${call.method} ${call.path} answered ${response.status} ${reason}${because}`);
    }
    if (call.ref !== undefined) refs[call.ref] = answer;
  }
  return refs;
}
