import type { LogLevel, Logger } from './logger.js';

/** A `fetch` that takes a `Request`: `globalThis.fetch`, or e.g. `(request) => mock.handle(request)`. */
export type FetchLike = (input: Request) => Promise<Response>;

/** The production API; `ClientOptions.baseUrl` overrides it (the local mock is `http://127.0.0.1:4010/v1`). */
export const DEFAULT_BASE_URL = 'https://api.cardrail.dev/v1';
export const DEFAULT_MAX_RETRIES = 2;
export const DEFAULT_TIMEOUT_MS = 60_000;

/**
 * Options of `new Cardrail(options)` and `new CardrailUsers(options)`; `withOptions` takes the same.
 *
 * @example
 * ```ts
 * const cardrail = new Cardrail({ baseUrl: 'http://127.0.0.1:4010/v1', maxRetries: 0, logLevel: 'debug' });
 * ```
 */
export interface ClientOptions {
  /** `sk_test_...` or `sk_live_...`. Defaults to the CARDRAIL_API_KEY environment variable where there is one. */
  apiKey?: string | undefined;
  /** Defaults to production; the mock server is `http://127.0.0.1:4010/v1`. */
  baseUrl?: string | undefined;
  /** Retries after the first attempt; 0 turns retrying off. Default 2. */
  maxRetries?: number | undefined;
  /** Limit of each attempt, from sending to the end of the response body. Default 60 000. */
  timeoutMs?: number | undefined;
  /** A fetch implementation; by default `globalThis.fetch`, looked up on every request. */
  fetch?: FetchLike | undefined;
  /** Headers sent with every request. */
  defaultHeaders?: Record<string, string> | undefined;
  /** Default 'warn'. API keys and credential headers are redacted at every level. */
  logLevel?: LogLevel | undefined;
  /** Default `console`. */
  logger?: Logger | undefined;
}

/** Per-call overrides of the client options. */
export interface RequestOptions {
  /** Sent as `Idempotency-Key`; POST and PATCH get a generated one otherwise, the same on every retry. */
  idempotencyKey?: string | undefined;
  /** Retries after the first attempt for this call; 0 turns retrying off. */
  maxRetries?: number | undefined;
  /** Limit of each attempt of this call, in milliseconds. */
  timeoutMs?: number | undefined;
  /** Aborting cancels the call at once with RequestAbortedError; no retry follows. */
  signal?: AbortSignal | undefined;
  /** Headers sent with this call, over the client's `defaultHeaders`. */
  headers?: Record<string, string> | undefined;
}
