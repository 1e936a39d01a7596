/**
 * A stateful mock of the Cardrail API: `createMockServer` answers web `Request`s in-process; extensions add or
 * replace operation handlers; `loadFixtures` preloads objects through the API.
 *
 * @module @cardrail/mock-server
 */
export { createMockServer } from './server.js';
export type { MockServer, MockServerOptions, ServerClock, ServerEvents, EventQuery } from './server.js';
export type { AnyStoredEvent as MockEvent, EventData, Mode, StoredEvent, StoredEventType } from './core/event-types.js';
export type { MockExtension } from './extension.js';
export type {
  HandlerMap,
  OperationContext,
  OperationHandler,
  OperationResult,
  ServerServices,
} from './http/operation-handler.js';
export { ApiError } from './core/errors.js';
export type { ApiRequest } from './http/api-request.js';
export type { WireResponse } from './http/response.js';
export type { Variant } from './core/variant.js';
export type { EventListener, PolicyChange, PolicyChangeListener, Tenant, TenantSlot, TenantState } from './core/tenant.js';
export type { FetchFunction } from './webhooks/dispatcher.js';
export { defineCollection } from './core/tenant.js';
export { API_BASE_PATH } from './http/app.js';
export { FixtureError, loadFixtures, type Fixtures, type FixtureRequest } from './fixtures.js';
