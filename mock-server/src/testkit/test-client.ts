import { Cardrail, CardrailUsers, type ClientOptions } from '@cardrail/sdk';
import type { Variant } from '../core/variant.js';

/**
 * Options of `mock.client()`. Unlike the SDK's own default (`maxRetries: 2`), a test client does not retry
 * (`maxRetries: 0`) unless given `maxRetries`: a test sees every answer the mock gives, an injected fault included.
 */
export interface TestClientOptions extends Omit<ClientOptions, 'apiKey' | 'fetch' | 'baseUrl'> {
  /** `customer` (default): a `Cardrail` client (Bearer key); `user`: a `CardrailUsers` client (`Api-Key`). */
  variant?: Variant;
}

/** The typed client of `variant`. */
export type TestClient<V extends Variant> = V extends 'user' ? CardrailUsers : Cardrail;

/** Where a test client's requests go: straight to the mock's handler, whatever the global fetch is. */
export const IN_PROCESS_BASE_URL = 'https://in-process.cardrail.test/v1';

/**
 * A client of a new organization (a new test key) that calls the mock in-process: no network, and no dependence on
 * MSW listening (its requests never reach the global fetch).
 */
export function createTestClient<V extends Variant>(
  handle: (request: Request) => Promise<Response>,
  apiKey: string,
  options: TestClientOptions & { variant?: V } = {},
): TestClient<V> {
  const { variant, ...rest } = options;
  // Retries would hide a mock's answer from the test; a test that wants them asks for them.
  const config: ClientOptions = { maxRetries: 0, ...rest, apiKey, baseUrl: IN_PROCESS_BASE_URL, fetch: handle };
  // The conditional type picks the class the variant names, which is the one built here.
  return (variant === 'user' ? new CardrailUsers(config) : new Cardrail(config)) as TestClient<V>;
}
