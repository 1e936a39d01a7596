import createClient, { type Client } from 'openapi-fetch';
import { CardrailError } from '../errors.js';
import { APIPromise, type WithResponse } from './api-promise.js';
import { modeFromApiKey, type Mode } from './api-key.js';
import {
  DEFAULT_BASE_URL,
  DEFAULT_MAX_RETRIES,
  DEFAULT_TIMEOUT_MS,
  type ClientOptions,
  type RequestOptions,
} from './client-options.js';
import { invalidPathParameter, type AnyPaths, type CallParams, type Endpoint } from './endpoint.js';
import { errorFromResponse, requestIdOf } from './error-from-response.js';
import { parseSuccessBody } from './success-body.js';
import { leveledLogger } from './logger.js';
import { paginate, type ListEnvelope, type PagePromise } from './pagination.js';
import { createRetryingFetch, type AttemptPolicy, type RetryingFetch } from './retrying-fetch.js';

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

/**
 * State and plumbing shared by both variants' clients: the options, one retrying fetch, and the two ways requests
 * leave through it: the resource methods (`send`, `sendPage`) and the openapi-fetch client (`raw`).
 */
export class ClientCore<Paths extends {}> {
  readonly raw: Client<Paths>;
  readonly mode: Mode;
  readonly baseUrl: string;
  /** openapi-fetch over any path: the resource methods send through it, their declarations carry the types. */
  readonly #client: Client<AnyPaths>;
  readonly #fetch: RetryingFetch;
  /** The client's retries and timeout; a call's options override them. */
  readonly #policy: AttemptPolicy;

  constructor(options: ClientOptions, authHeaders: AuthHeaders) {
    const apiKey = options.apiKey ?? readEnv('CARDRAIL_API_KEY');
    this.mode = modeFromApiKey(apiKey);
    this.#policy = {
      maxRetries: nonNegativeInteger('maxRetries', options.maxRetries ?? DEFAULT_MAX_RETRIES),
      timeoutMs: positiveInteger('timeoutMs', options.timeoutMs ?? DEFAULT_TIMEOUT_MS),
    };
    this.baseUrl = (options.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
    const headers = { ...options.defaultHeaders, ...authHeaders(apiKey as string) };
    const userFetch = options.fetch;
    this.#fetch = createRetryingFetch({
      resolveFetch: () => userFetch ?? ((request) => globalThis.fetch(request)),
      logger: leveledLogger(options.logLevel ?? 'warn', options.logger ?? console),
    });
    this.#client = createClient<AnyPaths>({ baseUrl: this.baseUrl, headers });
    this.raw = createClient<Paths>({ baseUrl: this.baseUrl, headers, fetch: (request) => this.#fetch(request, this.#policy) });
  }

  /** Calls an operation; an error status rejects with the matching CardrailError subclass. */
  send<T>(endpoint: Endpoint, params: CallParams, options?: RequestOptions): APIPromise<T> {
    return new APIPromise(this.#exchange<T>(endpoint, params, options));
  }

  /** Calls a list operation; following pages repeat the call with the next cursor and the same options. */
  sendPage<T>(endpoint: Endpoint, params: CallParams, options?: RequestOptions): PagePromise<T> {
    return paginate<T>((cursor) =>
      this.#exchange<ListEnvelope<T>>(
        endpoint,
        cursor === undefined ? params : { ...params, query: { ...params.query, cursor } },
        options,
      ),
    );
  }

  async #exchange<T>(endpoint: Endpoint, params: CallParams, options: RequestOptions | undefined): Promise<WithResponse<T>> {
    const policy = this.#policyFor(options);
    const invalid = invalidPathParameter(params.path);
    if (invalid !== undefined) throw invalid;
    const { data, error, response } = await this.#client.request(endpoint.method, endpoint.path, {
      params: { path: params.path, query: params.query },
      body: params.body,
      parseAs: 'text',
      fetch: (request) => this.#fetch(request, policy),
      headers: options?.headers,
      signal: options?.signal,
    });
    if (!response.ok) throw errorFromResponse(response, error);
    return { data: parseSuccessBody(data, response) as T, response, requestId: requestIdOf(response) };
  }

  #policyFor(call: RequestOptions | undefined): AttemptPolicy {
    if (call === undefined) return this.#policy;
    return {
      maxRetries: nonNegativeInteger('maxRetries', call.maxRetries ?? this.#policy.maxRetries),
      timeoutMs: positiveInteger('timeoutMs', call.timeoutMs ?? this.#policy.timeoutMs),
      idempotencyKey: call.idempotencyKey,
    };
  }
}
