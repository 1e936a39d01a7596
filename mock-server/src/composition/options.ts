import type { StateJournal } from '../core/state/change-tracker.js';
import { type ApprovalPage, NO_APPROVAL_PAGE } from '../engine/intents/approval-page.js';
import { DEFAULT_MAX_BODY_BYTES } from '../http/body-limit.js';
import type { HandlerMap } from '../operations/handler-map.js';
import type { MockExtension } from '../operations/extension.js';
import type { RateLimitSetting } from '../core/rate-limiter.js';
import { DEFAULT_ADVANCE_MAX_WAIT_MS } from '../core/scheduler.js';
import type { SpecDocuments } from '../spec/documents.js';
import type { FetchFunction } from '../webhooks/dispatcher.js';

/** Options of `createMockServer` (and of `createHandlers` and `startMockServer`, which take the same). */
export interface MockServerOptions {
  /** Stop wall time: every test clock starts at this instant and moves only when advanced. Default: wall time. */
  frozenClock?: Date | string | number | undefined;
  /** `standard` (100/min), `pro` (1000/min) or requests per minute, per key. Default: no limit. */
  rateLimit?: RateLimitSetting | string | undefined;
  /** The fetch used to deliver webhooks. Default: `globalThis.fetch` at each attempt (so MSW can intercept). */
  fetch?: FetchFunction | undefined;
  /** How long a receiver has to answer a delivery. Default 10 000 ms. */
  webhookTimeoutMs?: number | undefined;
  /**
   * Hosts that may receive webhooks whatever their address: link-local and unspecified addresses are refused
   * otherwise (docs/webhooks.md#where-deliveries-may-go).
   */
  allowWebhookHosts?: readonly string[] | undefined;
  /**
   * Webhook attempts in flight from one organization (and mode) to one origin at most (default 8): its own share of
   * the origin, which another organization's queue never takes. More wait for a slot, keeping their order.
   */
  webhookAttemptsPerOrganization?: number | undefined;
  /**
   * Webhook attempts in flight to one origin at most, all organizations together (default 32): the sockets a receiver
   * that never answers can hold. Organizations waiting for the same origin take turns.
   */
  webhookAttemptsPerOrigin?: number | undefined;
  /** Webhook attempts in flight overall at most (default 128). */
  webhookAttemptsInFlight?: number | undefined;
  /**
   * How long `POST /simulate/clock/advance` waits, in real time, for the webhook attempts it starts before it
   * answers with those still pending (default 30 000 ms; docs/test-helpers.md#the-test-clock). `mock.clock.advance()`
   * and `mock.idle()` in code wait for everything.
   */
  clockAdvanceMaxWaitMs?: number | undefined;
  /** Check each answer against the spec's response schema; a mismatch answers 500. Meant for tests. */
  validateResponses?: boolean | undefined;
  /** `true` logs one line per request to the console (stdout on Node); a function receives the lines instead. */
  log?: boolean | ((line: string) => void) | undefined;
  /** Makes ids reproducible: the same seed gives the same ids in the same order. */
  seed?: string | undefined;
  /** More behaviour: handlers by operationId (later extensions override earlier ones) and event observers. */
  extensions?: MockExtension[] | undefined;
  /** Overrides by operationId, applied last. */
  handlers?: HandlerMap | undefined;
  /** Spec documents to serve; default: the copies bundled with the package. */
  documents?: SpecDocuments | undefined;
  /** The largest request body read, in bytes; a larger one is 413. Default 1 MiB. */
  maxBodyBytes?: number | undefined;
  /**
   * Takes an organization and mode out of memory after this much wall time without a request. With a durable
   * `journal` that keeps every tenant (the Node server's `--state`) it comes back on its next request, or when its
   * scheduled work falls due; without one it is forgotten, and only once no work is scheduled on its clock.
   * Default: never.
   */
  evictIdleMs?: number | undefined;
  /**
   * A durable store: every change is handed to it before the answer that made it (docs/standalone-server.md). The
   * Node server's `--state` is one; see `startMockServer({ state })`.
   */
  journal?: StateJournal | undefined;
  /**
   * The page where a person approves or rejects an intent: a URL in which `{intentId}` stands for the intent's id
   * (`https://app.example/approvals/{intentId}`), or a function of the id answering a URL or null. It becomes each new
   * intent's `approvalUrl`, and `intent.pending_approval`'s (docs/agents.md). Default: none, `approvalUrl` null; the
   * Node server (`startMockServer()`, the CLI) names its dashboard's page for an intent when it serves the dashboard.
   */
  approvalPage?: string | ((intentId: string) => string | null) | undefined;
}

/** `maxBodyBytes`, checked: a positive whole number of bytes (default 1 MiB). */
export function maxBodyBytesOf(options: MockServerOptions): number {
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  if (!Number.isSafeInteger(maxBodyBytes) || maxBodyBytes < 1) {
    throw new TypeError(`maxBodyBytes must be a positive integer, got ${String(options.maxBodyBytes)}`);
  }
  return maxBodyBytes;
}

/** `clockAdvanceMaxWaitMs`, checked: a whole number of milliseconds from 0 to 2^31 - 1 (a timer's range). */
export function clockAdvanceMaxWaitOf(options: MockServerOptions): number {
  const waitMs = options.clockAdvanceMaxWaitMs ?? DEFAULT_ADVANCE_MAX_WAIT_MS;
  if (!Number.isSafeInteger(waitMs) || waitMs < 0 || waitMs > 2 ** 31 - 1) {
    throw new TypeError(
      `clockAdvanceMaxWaitMs must be a whole number of milliseconds from 0 to 2147483647, got ${String(options.clockAdvanceMaxWaitMs)}`,
    );
  }
  return waitMs;
}

/** Where `log` sends the request lines: the console for `true`, the function given, or nowhere. */
export function requestLogOf(options: MockServerOptions): ((line: string) => void) | undefined {
  return options.log === true ? (line) => console.log(line) : options.log === false ? undefined : options.log;
}

/** The longest `approvalUrl` the spec allows. */
const MAX_APPROVAL_URL = 2048;

/** Whether `text` is a page a browser opens: an absolute http or https URL (no `javascript:`, no `file:`). */
export function isWebPage(text: string): boolean {
  if (!URL.canParse(text)) return false;
  const { protocol } = new URL(text);
  return protocol === 'http:' || protocol === 'https:';
}

function checkedUrl(value: unknown, intentId: string): string | null {
  if (value === null) return null;
  if (typeof value !== 'string' || value.length > MAX_APPROVAL_URL || !isWebPage(value)) {
    throw new TypeError(
      `approvalPage must give an absolute http(s) URL of at most ${MAX_APPROVAL_URL} characters or null; for ${intentId} it gave ${JSON.stringify(value)}`,
    );
  }
  return value;
}

/** `approvalPage` as the engine uses it: a function of the intent id, its answers checked. */
export function approvalPageOf(options: MockServerOptions): ApprovalPage {
  const page = options.approvalPage;
  if (page === undefined) return NO_APPROVAL_PAGE;
  if (typeof page === 'function') return (intentId) => checkedUrl(page(intentId), intentId);
  if (typeof page !== 'string' || !page.includes('{intentId}')) {
    throw new TypeError(`approvalPage must be a URL containing {intentId}, or a function; got ${JSON.stringify(page)}`);
  }
  checkedUrl(page.replaceAll('{intentId}', 'int_0'), 'a check');
  return (intentId) => checkedUrl(page.replaceAll('{intentId}', encodeURIComponent(intentId)), intentId);
}
