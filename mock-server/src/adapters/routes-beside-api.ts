import type { IncomingMessage, ServerResponse } from 'node:http';
import type { WireResponse } from '../http/response.js';
import type { ApiRequest } from '../http/app.js';
import { CONTROL_BASE_PATH } from '../testkit/control-path.js';
import { CONTROL_MAX_BODY_BYTES } from './control-options.js';
import { createDashboardHandler } from './dashboard-assets.js';
import { writeAnswer, writeFailure } from './node-answer.js';
import type { ServerAddress } from './node-listener.js';
import { NodeApiRequest } from './node-request.js';

/** The Node server's routes beside the API: which it serves. */
export interface RoutesBesideApi {
  /** The dashboard at the root (`/` and `/dashboard/...`). */
  dashboard: boolean;
  /** The control API at `/__cardrail/` (testkit/control-api.ts), when the server has one. */
  control: ((request: ApiRequest) => Promise<WireResponse>) | undefined;
}

/**
 * Answers a request for one of the routes beside the API, and says whether it did (the API answers the others). A
 * control call has its own body limit: a snapshot to restore can be large.
 */
export function routesBesideApi(
  routes: RoutesBesideApi,
  address: ServerAddress,
): (incoming: IncomingMessage, outgoing: ServerResponse) => boolean {
  const dashboard = routes.dashboard ? createDashboardHandler() : undefined;
  const { control } = routes;
  return (incoming, outgoing) => {
    if (dashboard?.(incoming, outgoing)) return true;
    if (!control || !isControlPath(incoming.url ?? '')) return false;
    const request = new NodeApiRequest(incoming, address.origin, CONTROL_MAX_BODY_BYTES);
    control(request).then(
      (wire) => writeAnswer(incoming, outgoing, request, wire),
      (error: unknown) => writeFailure(outgoing, error),
    );
    return true;
  };
}

function isControlPath(path: string): boolean {
  return path === CONTROL_BASE_PATH || path.startsWith(`${CONTROL_BASE_PATH}/`) || path.startsWith(`${CONTROL_BASE_PATH}?`);
}
