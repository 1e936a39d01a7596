import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Coverage, type Envelope } from './coverage.js';
import { formatErrors, loadSpecs, variantOf, type OperationInfo, type SpecIndex, type Variant } from './spec.js';

/** The Schemathesis names of the response checks, plus Prism's own verdict when a suite runs through its proxy. */
export type CheckName =
  | 'not_a_server_error'
  | 'status_code_conformance'
  | 'content_type_conformance'
  | 'response_headers_conformance'
  | 'response_schema_conformance'
  | 'prism_violation'
  | 'webhook_signature'
  | 'webhook_schema';

export interface Violation {
  check: CheckName;
  /** `customer getCard` or the raw request line when no operation matched. */
  operation: string;
  request: string;
  status: number;
  message: string;
}

export interface Exchange {
  variant: Variant;
  operation: OperationInfo | undefined;
  method: string;
  /** Path without the base path, query included. */
  target: string;
  requestHeaders: Headers;
  requestBody: string;
  status: number;
  responseHeaders: Headers;
  responseBody: string;
  /** The parsed body when it is JSON. */
  json: unknown;
  violations: Violation[];
}

export type FetchFn = (input: Request) => Promise<Response>;

export interface RecorderOptions {
  suite: string;
  /** Prefix removed from request paths before matching the spec's templates: `/v1` for the mock, '' for Prism. */
  basePath?: string;
  /** Where requests really go; by default `globalThis.fetch`, looked up at call time so MSW can intercept. */
  baseFetch?: FetchFn;
}

function describeRequest(method: string, target: string, body: string): string {
  const shown = body.length > 300 ? `${body.slice(0, 300)}... (${body.length} chars)` : body;
  return `${method} ${target}${shown ? ` ${shown}` : ''}`;
}

/**
 * A `fetch` that checks every response against the spec as it passes: the status is documented for the operation,
 * the content type is the documented one, documented required headers are there and valid, and the body validates.
 * It also counts operations x statuses and delivered event types for the coverage report.
 */
export class ContractRecorder {
  readonly specs: Record<Variant, SpecIndex> = loadSpecs();
  readonly coverage: Coverage;
  readonly exchanges: Exchange[] = [];
  readonly violations: Violation[] = [];
  readonly #basePath: string;
  readonly #baseFetch: FetchFn;
  #reported = 0;

  constructor(options: RecorderOptions) {
    this.coverage = new Coverage(options.suite);
    this.#basePath = options.basePath ?? '/v1';
    this.#baseFetch = options.baseFetch ?? ((request) => globalThis.fetch(request));
  }

  /** Hand this to the SDK (`fetch` option) or call it like the global `fetch`. */
  readonly fetch = async (input: Request | string | URL, init?: RequestInit): Promise<Response> => {
    const request = input instanceof Request && init === undefined ? input : new Request(input, init);
    const requestBody = request.body === null ? '' : await request.clone().text();
    const response = await this.#baseFetch(request);
    const responseBody = await response.clone().text();
    this.record(request, requestBody, response, responseBody);
    return response;
  };

  /** Checks one exchange and adds it to the run. */
  record(request: Request, requestBody: string, response: Response, responseBody: string): Exchange {
    const url = new URL(request.url);
    const path = url.pathname.startsWith(this.#basePath) ? url.pathname.slice(this.#basePath.length) || '/' : url.pathname;
    const variant = variantOf(path, request.headers);
    const operation = this.specs[variant].find(request.method, path);
    let json: unknown;
    try {
      json = responseBody === '' ? undefined : JSON.parse(responseBody);
    } catch {
      json = undefined;
    }
    const exchange: Exchange = {
      variant,
      operation,
      method: request.method,
      target: path + url.search,
      requestHeaders: request.headers,
      requestBody,
      status: response.status,
      responseHeaders: response.headers,
      responseBody,
      json,
      violations: [],
    };
    if (operation) {
      this.coverage.addResponse(variant, operation.operationId, response.status);
      exchange.violations.push(...this.#check(exchange, operation));
    }
    this.exchanges.push(exchange);
    this.violations.push(...exchange.violations);
    return exchange;
  }

  #check(exchange: Exchange, operation: OperationInfo): Violation[] {
    const found: Violation[] = [];
    const add = (check: CheckName, message: string): void => {
      found.push({
        check,
        operation: `${operation.variant} ${operation.operationId}`,
        request: describeRequest(exchange.method, exchange.target, exchange.requestBody),
        status: exchange.status,
        message,
      });
    };
    const prism = exchange.responseHeaders.get('sl-violations');
    if (prism) add('prism_violation', prism);
    // A 5xx a test injected on purpose (mock.faults) is marked so; any other is a fault of the mock.
    const injected = exchange.responseHeaders.get('cardrail-mock-fault') !== null;
    if (exchange.status >= 500 && !injected) {
      add('not_a_server_error', `answered ${exchange.status}: ${exchange.responseBody.slice(0, 500)}`);
    }
    const documented =
      operation.responses.get(String(exchange.status)) ?? operation.responses.get(`${String(exchange.status)[0]}XX`);
    if (!documented) {
      add(
        'status_code_conformance',
        `status ${exchange.status} is not documented (documented: ${[...operation.responses.keys()].join(', ')}); body ${exchange.responseBody.slice(0, 300)}`,
      );
      return found;
    }
    for (const header of documented.headers) {
      const value = exchange.responseHeaders.get(header.name);
      if (value === null) {
        if (header.required) add('response_headers_conformance', `required header ${header.name} is missing`);
        continue;
      }
      if (header.validate) {
        // A numeric header is read as its decimal text, nothing looser: `Number('')` is 0 and `Number('0x10')` is 16.
        const numeric = header.schema?.type === 'integer' || header.schema?.type === 'number';
        const typed = numeric && /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value;
        if (!header.validate(typed))
          add(
            'response_headers_conformance',
            `header ${header.name}: ${JSON.stringify(value)} ${formatErrors(header.validate.errors).join('; ')}`,
          );
      }
    }
    if (documented.contentType) {
      const contentType = exchange.responseHeaders.get('content-type') ?? '';
      if (contentType.split(';')[0]?.trim().toLowerCase() !== documented.contentType) {
        add('content_type_conformance', `content-type ${JSON.stringify(contentType)}, documented ${documented.contentType}`);
      }
      if (documented.validate) {
        if (exchange.json === undefined)
          add('response_schema_conformance', `body is not JSON: ${exchange.responseBody.slice(0, 200)}`);
        else if (!documented.validate(exchange.json)) {
          add(
            'response_schema_conformance',
            `${formatErrors(documented.validate.errors).slice(0, 8).join('; ')}; body ${exchange.responseBody.slice(0, 400)}`,
          );
        }
      }
    } else if (exchange.responseBody !== '') {
      add(
        'content_type_conformance',
        `a body came with a status documented without content: ${exchange.responseBody.slice(0, 200)}`,
      );
    }
    return found;
  }

  /** A problem seen outside an HTTP exchange of the API, e.g. a webhook delivery that does not verify. */
  addViolation(violation: Violation): void {
    this.violations.push(violation);
  }

  recordEvent(envelope: Envelope, type: string): void {
    this.coverage.addEvent(envelope, type);
  }

  /** Violations not yet handed out: each test asserts that the calls it made added none. */
  takeNewViolations(): Violation[] {
    const fresh = this.violations.slice(this.#reported);
    this.#reported = this.violations.length;
    return fresh;
  }

  /** The exchanges of one operation. */
  exchangesOf(variant: Variant, operationId: string): Exchange[] {
    return this.exchanges.filter((e) => e.variant === variant && e.operation?.operationId === operationId);
  }

  /** Writes this suite's coverage as JSON into `dir`; the global teardown merges every suite into coverage.md. */
  writeCoverage(dir: string): void {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `${this.coverage.suite}.json`), JSON.stringify(this.coverage.toJSON(), null, 1));
  }
}
