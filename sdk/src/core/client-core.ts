import createClient, { type Client } from 'openapi-fetch';
import { CardrailError } from '../errors.js';
import { APIPromise, type WithResponse } from './api-promise.js';
import { modeFromApiKey, type Mode } from './api-key.js';
import {
  DEFAULT_BASE_URL,
  DEFAULT_MAX_RETRIES,
  DEFAULT_TIMEOUT_MS,
  type ClientOptions,
  type FetchLike,
  type RequestOptions,
} from './client-options.js';
import { urlOf, type CallParams, type Endpoint, type Variant } from './endpoint.js';
import { errorFromResponse, requestIdOf } from './error-from-response.js';
import { leveledLogger } from './logger.js';
import type { HttpMethod } from './operation-types.js';
import { paginate, type ListEnvelope, type PagePromise } from './pagination.js';
import { rawFetch } from './raw-fetch.js';
import { callHeaders, mergeHeaders } from './request-headers.js';
import { sendWithRetries, type AttemptPolicy, type Transport } from './retry-loop.js';
import { parseErrorText, parseSuccessBody } from './success-body.js';

/** A variant's part of a client: which paths it calls, and how its key is sent. */
export interface VariantAuth {
  readonly variant: Variant;
  readonly authHeaders: (apiKey: string) => Record<string, string>;
}

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
 * State and plumbing shared by both variants' clients: the options, and the two ways requests leave: the resource
 * methods (`send`, `sendPage`: the body serialised once, one Request per attempt, the answer read once) and the
 * openapi-fetch client (`raw`), both through the same retries, timeouts and logging.
 */
export class ClientCore<Paths extends {}> {
  readonly raw: Client<Paths>;
  readonly mode: Mode;
  readonly baseUrl: string;
  readonly variant: Variant;
  /** The client's headers (default headers, then the key's), names in lower case. */
  readonly #headers: Readonly<Record<string, string>>;
  readonly #transport: Transport;
  /** The client's retries and timeout; a call's options override them. */
  readonly #policy: AttemptPolicy;

  constructor(options: ClientOptions, auth: VariantAuth) {
    const apiKey = options.apiKey ?? readEnv('CARDRAIL_API_KEY');
    this.mode = modeFromApiKey(apiKey);
    this.variant = auth.variant;
    this.#policy = {
      maxRetries: nonNegativeInteger('maxRetries', options.maxRetries ?? DEFAULT_MAX_RETRIES),
      timeoutMs: positiveInteger('timeoutMs', options.timeoutMs ?? DEFAULT_TIMEOUT_MS),
    };
    this.baseUrl = (options.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
    this.#headers = mergeHeaders(mergeHeaders({}, options.defaultHeaders), auth.authHeaders(apiKey as string));
    const userFetch = options.fetch;
    const globalFetch: FetchLike = (request) => globalThis.fetch(request);
    this.#transport = {
      fetch: () => userFetch ?? globalFetch,
      logger: leveledLogger(options.logLevel ?? 'warn', options.logger ?? console),
    };
    const fetch = rawFetch(this.#transport, this.#policy);
    this.raw = createClient<Paths>({ baseUrl: this.baseUrl, headers: this.#headers, fetch });
  }

  /** @internal Calls an operation; an error status rejects with the matching CardrailError subclass. */
  send<T>(method: HttpMethod, endpoint: Endpoint, params: CallParams, options?: RequestOptions): APIPromise<T> {
    return new APIPromise(this.#exchange<T>(method, endpoint, params, options));
  }

  /** @internal Calls a list operation; following pages repeat the call with the next cursor and the same options. */
  sendPage<T>(endpoint: Endpoint, params: CallParams, options?: RequestOptions): PagePromise<T> {
    return paginate<T>((cursor) =>
      this.#exchange<ListEnvelope<T>>(
        'get',
        endpoint,
        cursor === undefined ? params : { ...params, query: { ...params.query, cursor } },
        options,
      ),
    );
  }

  async #exchange<T>(
    method: HttpMethod,
    endpoint: Endpoint,
    params: CallParams,
    given: RequestOptions | undefined,
  ): Promise<WithResponse<T>> {
    // A JavaScript caller may pass anything as the options.
    const options = typeof given === 'object' && given !== null ? given : undefined;
    const policy = this.#policyFor(options);
    const url = urlOf(this.baseUrl, endpoint, this.variant, params);
    const verb = method.toUpperCase();
    const body = params.body === undefined ? undefined : JSON.stringify(params.body);
    const headers = callHeaders(this.#headers, verb, {
      headers: options?.headers,
      idempotencyKey: policy.idempotencyKey,
      hasBody: body !== undefined,
    });
    const call = { method: verb, url, headers, body, policy, signal: options?.signal };
    const { response, body: text } = await sendWithRetries(this.#transport, call, (answer) => answer.text());
    if (!response.ok) throw errorFromResponse(response, parseErrorText(text));
    return { data: parseSuccessBody(text, response) as T, response, requestId: requestIdOf(response) };
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
