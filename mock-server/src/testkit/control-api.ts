import { HttpError, invalidRequest, notFound, refusalOf, StateUnavailable, unauthorized } from '../core/errors.js';
import { snapshotProblem } from '../core/state/snapshot-shape.js';
import type { MockSnapshot } from '../core/state/model.js';
import type { WireEventType } from '../operations/wire-event.js';
import { renderDelivery } from '../variants/render/platform-records.js';
import { deliveries } from '../webhooks/records.js';
import type { ApiRequest } from '../operations/api-request.js';
import { jsonResponse, toWire, type WireResponse } from '../http/response.js';
import { newRequestId } from '../core/ids.js';
import type { StoredResponse } from '../core/idempotency.js';
import type { Tenant } from '../core/tenant.js';
import type { Variant } from '../core/variant.js';
import { controlOpenApi } from './control-openapi.js';
import { CONTROL_BASE_PATH } from './control-path.js';
import type { ControlTarget } from './control-target.js';
import { presentsToken } from './control-token.js';
import { FaultOptionError, type FaultOptions } from './fault-options.js';

/** Options of the control API. */
export interface ControlApiOptions {
  /** The bearer token every call but the OpenAPI document must present. */
  token: string;
}

/** The header that names the organization a control call is about, by one of its API keys. */
const API_KEY_HEADER = 'cardrail-api-key';
const MAX_ADVANCE_SECONDS = 315_360_000;

type Handler = (request: ApiRequest, target: ControlTarget, rest: string) => Promise<StoredResponse> | StoredResponse;

/**
 * The test kit over HTTP (`/__cardrail/...`, described by its own OpenAPI document at `/__cardrail/openapi.json`):
 * reset, snapshot and restore, every organization's clock, an organization's events and deliveries, faults, idle. The
 * Node server puts it beside the API when asked (`--control`); every call needs the bearer token, and a bad one
 * changes nothing and gets the API's error format.
 */
export function createControlApi(
  target: ControlTarget,
  options: ControlApiOptions,
): (request: ApiRequest) => Promise<WireResponse> {
  return async (request) => {
    const requestId = newRequestId();
    try {
      const path = new URL(request.url).pathname.slice(CONTROL_BASE_PATH.length) || '/';
      if (request.method === 'GET' && path === '/openapi.json') return toWire(jsonResponse(200, controlOpenApi), requestId);
      if (!presentsToken(request.headers.get('authorization'), options.token)) throw unauthorized();
      const [route, rest] = routeOf(path);
      const handler = route && ROUTES[route]?.[request.method];
      if (!route || !ROUTES[route]) throw notFound();
      if (!handler) throw methodNotAllowed(Object.keys(ROUTES[route] ?? {}));
      return toWire(await handler(request, target, rest), requestId);
    } catch (error) {
      // A shared state out of reach (StateUnavailable) is 503 `state_not_saved`, as on the API.
      const failure = refusalOf(
        error instanceof FaultOptionError ? invalidRequest(`/body/${error.field}`, error.message) : error,
      );
      if (!failure) throw error;
      return toWire(jsonResponse(failure.status, failure.toBody(), failure.headers), requestId);
    }
  };
}

/** `/faults/flt_1` is the route `/faults/{faultId}` with `flt_1`; the others are exact. */
function routeOf(path: string): [string | undefined, string] {
  if (path in ROUTES) return [path, ''];
  const fault = /^\/faults\/([^/]+)$/.exec(path);
  if (!fault) return [undefined, ''];
  try {
    return ['/faults/{faultId}', decodeURIComponent(fault[1] ?? '')];
  } catch {
    // A malformed escape (`%zz`) names no fault.
    return [undefined, ''];
  }
}

const noContent = (): StoredResponse => ({ status: 204, headers: [], body: '' });
const json = (status: number, body: unknown): StoredResponse => jsonResponse(status, body);

const ROUTES: Record<string, Record<string, Handler>> = {
  '/reset': {
    POST: async (_request, target) => {
      await target.reset();
      return noContent();
    },
  },
  '/snapshot': {
    GET: async (_request, target) => json(200, await target.readState()),
    PUT: async (request, target) => {
      const snapshot = await jsonBody(request);
      const problem = snapshotProblem(snapshot);
      if (problem) throw invalidRequest('/body', problem);
      // A snapshot of the right shape whose records still fail to load leaves the state as it was.
      const before = await target.readState();
      try {
        await target.restore(snapshot as MockSnapshot);
      } catch (error) {
        // The state out of reach is no fault of the snapshot: 503 `state_not_saved`, and the store kept nothing of it.
        if (error instanceof StateUnavailable) throw error;
        await target.restore(before);
        throw invalidRequest(
          '/body',
          `the snapshot could not be restored: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
      return noContent();
    },
  },
  '/idle': {
    POST: async (_request, target) => {
      await target.idle();
      return noContent();
    },
  },
  '/clock/advance': {
    POST: async (request, target) => {
      const body = await jsonBody(request);
      const seconds = (body as { seconds?: unknown } | null)?.seconds;
      if (typeof seconds !== 'number' || !Number.isInteger(seconds) || seconds < 1 || seconds > MAX_ADVANCE_SECONDS) {
        throw invalidRequest('/body/seconds', `must be a whole number from 1 to ${MAX_ADVANCE_SECONDS}`);
      }
      await target.clock.advance(seconds);
      return json(200, { now: target.clock.now().toISOString() });
    },
  },
  '/clock': {
    GET: (_request, target) => json(200, { now: target.clock.now().toISOString(), frozen: target.clock.frozen }),
  },
  '/organization': {
    GET: (request, target) =>
      organizationOf(request, target, ({ tenant, variant, apiKey }) =>
        json(200, {
          organizationId: tenant.organizationId,
          mode: tenant.mode,
          variant,
          now: target.clock.now(apiKey).toISOString(),
        }),
      ),
  },
  '/events': {
    GET: (request, target) =>
      organizationOf(request, target, ({ apiKey }) => {
        const type = new URL(request.url).searchParams.get('type') ?? undefined;
        return json(200, { data: target.events.list({ apiKey, type: type as WireEventType | undefined }) });
      }),
  },
  '/deliveries': {
    GET: (request, target) =>
      organizationOf(request, target, ({ tenant }) =>
        json(200, { data: [...deliveries.of(tenant).values()].map(renderDelivery) }),
      ),
  },
  '/faults': {
    GET: (_request, target) => json(200, { data: target.faults.list() }),
    POST: async (request, target) => {
      const handle = target.faults.inject((await jsonBody(request)) as FaultOptions);
      return json(201, handle.info());
    },
    DELETE: (_request, target) => {
      target.faults.clear();
      return noContent();
    },
  },
  '/faults/{faultId}': {
    GET: (_request, target, id) => {
      const fault = target.faults.list().find((candidate) => candidate.id === id);
      if (!fault) throw notFound();
      return json(200, fault);
    },
    DELETE: (_request, target, id) => {
      if (!target.faults.list().some((candidate) => candidate.id === id)) throw notFound();
      target.faults.remove(id);
      return noContent();
    },
  },
};

/**
 * Answers from the organization named by the `Cardrail-Api-Key` header, up to date (under its lock with a shared
 * state): 400 without the header, 404 for a key the mock does not know.
 */
function organizationOf(
  request: ApiRequest,
  target: ControlTarget,
  answer: (known: { tenant: Tenant; variant: Variant; apiKey: string }) => StoredResponse,
): Promise<StoredResponse> {
  const apiKey = request.headers.get(API_KEY_HEADER);
  if (apiKey === null || apiKey === '')
    throw invalidRequest('/header/Cardrail-Api-Key', 'names the organization: one of its API keys');
  return target.inOrganization(apiKey, () => {
    const known = target.knownTenant(apiKey);
    if (!known) throw notFound();
    return answer({ ...known, apiKey });
  });
}

async function jsonBody(request: ApiRequest): Promise<unknown> {
  const text = await request.text();
  try {
    return JSON.parse(text);
  } catch {
    throw invalidRequest('/body', 'must be JSON');
  }
}

function methodNotAllowed(allow: string[]): HttpError {
  return new HttpError(
    405,
    'method_not_allowed',
    `Method not allowed; this path accepts ${allow.join(', ')}.`,
    { allow },
    {
      Allow: allow.join(', '),
    },
  );
}
