import createClient, { type Client } from 'openapi-fetch';
import { CardrailError } from '../errors.js';
import { APIPromise, unwrapRawResult, type RawResult } from './api-promise.js';
import { modeFromApiKey, type Mode } from './api-key.js';
import {
  DEFAULT_BASE_URL,
  DEFAULT_MAX_RETRIES,
  DEFAULT_TIMEOUT_MS,
  type ClientOptions,
  type RequestOptions,
} from './client-options.js';
import { leveledLogger, type Logger } from './logger.js';
import { paginate, type ListEnvelope, type PagePromise } from './pagination.js';
import { createRetryingFetch, type FetchLike } from './retrying-fetch.js';

/** What every call hands to openapi-fetch besides its params and body. */
export interface CallInit {
  fetch: FetchLike;
  /** The SDK parses success bodies itself (see success-body.ts). */
  parseAs: 'text';
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

export type AuthHeaders = (apiKey: string) => Record<string, string>;

function readEnv(name: string): string | undefined {
  // Web-standard runtimes have no process; reading it only where it exists keeps the SDK portable.
  const process = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process;
  return process?.env?.[name]?.trim() || undefined;
}

function integerAtLeast(name: string, value: number, minimum: number): number {
  if (!Number.isInteger(value) || value < minimum) {
    throw new CardrailError({
      code: 'invalid_option',
      message: `${name} must be an integer of at least ${minimum}, got ${value}.`,
    });
  }
  return value;
}

// Zero retries is a valid choice; a zero timeout would abort every attempt before it starts.
const nonNegativeInteger = (name: string, value: number) => integerAtLeast(name, value, 0);
const positiveInteger = (name: string, value: number) => integerAtLeast(name, value, 1);

/** State and plumbing shared by both variants' clients: options, the openapi-fetch client, retries, errors. */
export class ClientCore<Paths extends {}> {
  readonly raw: Client<Paths>;
  readonly mode: Mode;
  readonly baseUrl: string;
  readonly #fetch: FetchLike | undefined;
  readonly #maxRetries: number;
  readonly #timeoutMs: number;
  readonly #logger: Logger;

  constructor(options: ClientOptions, authHeaders: AuthHeaders) {
    const apiKey = options.apiKey ?? readEnv('CARDRAIL_API_KEY');
    this.mode = modeFromApiKey(apiKey);
    this.#fetch = options.fetch;
    this.#maxRetries = nonNegativeInteger('maxRetries', options.maxRetries ?? DEFAULT_MAX_RETRIES);
    this.#timeoutMs = positiveInteger('timeoutMs', options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    this.#logger = leveledLogger(options.logLevel ?? 'warn', options.logger ?? console);
    this.baseUrl = (options.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
    this.raw = createClient<Paths>({
      baseUrl: this.baseUrl,
      headers: { ...options.defaultHeaders, ...authHeaders(apiKey as string) },
      fetch: this.fetchFor(undefined),
    });
  }

  /** A retrying fetch configured by the client options overridden by one call's options. */
  fetchFor(call: RequestOptions | undefined): FetchLike {
    const userFetch = this.#fetch;
    return createRetryingFetch({
      resolveFetch: () => userFetch ?? ((request) => globalThis.fetch(request)),
      maxRetries: nonNegativeInteger('maxRetries', call?.maxRetries ?? this.#maxRetries),
      timeoutMs: positiveInteger('timeoutMs', call?.timeoutMs ?? this.#timeoutMs),
      idempotencyKey: call?.idempotencyKey,
      logger: this.#logger,
    });
  }

  initFor(call: RequestOptions | undefined): CallInit {
    const init: CallInit = { fetch: this.fetchFor(call), parseAs: 'text' };
    if (call?.headers) init.headers = call.headers;
    if (call?.signal) init.signal = call.signal;
    return init;
  }

  /** Sends one openapi-fetch call and turns an error status into the matching CardrailError subclass. */
  call<T>(send: (init: CallInit) => Promise<RawResult>, options?: RequestOptions): APIPromise<T> {
    return new APIPromise(unwrapRawResult<T>(send(this.initFor(options))));
  }

  /** A list call; following pages repeat it with the next cursor and the same options. */
  list<T>(send: (cursor: string | undefined, init: CallInit) => Promise<RawResult>, options?: RequestOptions): PagePromise<T> {
    return paginate<T>((cursor) => unwrapRawResult<ListEnvelope<T>>(send(cursor, this.initFor(options))));
  }
}
