/**
 * A stateful mock of the Cardrail API: `createMockServer` answers web `Request`s in-process; extensions add or
 * replace operation handlers; `loadFixtures` preloads objects through the API.
 *
 * @module @cardrail/mock-server
 */
export { createMockServer } from './composition/create-mock-server.js';
export type { KnownTenant, MockServer, MockServerOptions, ServerClock, StopReport } from './composition/create-mock-server.js';
export type { EventQuery, EventSource, ServerEvents } from './testkit/events.js';
export type {
  CustomerWireEvent,
  UserWireEvent,
  WireEvent as MockEvent,
  WireEventOfType,
  WireEventType,
} from './operations/wire-event.js';
export type { AnyStoredEvent, EventData, Mode, StoredEvent, StoredEventType } from './core/event-types.js';
export type {
  MockSnapshot,
  RandomPosition,
  ServerState,
  StateLine,
  TenantHeader,
  TenantSnapshot,
} from './core/state/model.js';
export type { JournalAccess, StateJournal } from './core/state/change-tracker.js';
export type { StoredTenant, StoredTenants } from './core/state/stored-tenants.js';
export type { IdempotencyRecord, StoredResponse } from './core/idempotency.js';
export type { MockExtension } from './operations/extension.js';
export type {
  HandlerMap,
  OperationContext,
  OperationHandler,
  OperationResult,
} from './operations/handler-map.js';
export type { ServerServices } from './operations/services.js';
export { HttpError } from './core/errors.js';
import { HttpError } from './core/errors.js';
/**
 * The former name of {@link HttpError}, the same class (`instanceof` holds either way).
 * @deprecated Use `HttpError`: `ApiError` read like the SDK's `APIError`, the error a client receives.
 */
export const ApiError = HttpError;
/** @deprecated Use `HttpError`. */
export type ApiError = HttpError;
export type { ApiRequest } from './operations/api-request.js';
export type { WireResponse } from './http/response.js';
export type { Variant } from './core/variant.js';
export type {
  EventListener,
  PolicyChange,
  PolicyChangeListener,
  RestoreListener,
  Tenant,
  TenantSlot,
  TenantState,
} from './core/tenant.js';
export type { FetchFunction } from './webhooks/dispatcher.js';
export { defineCollection } from './core/tenant.js';
export { API_BASE_PATH } from './http/app.js';
export { FixtureError, loadFixtures, type Fixtures, type FixtureRequest } from './testkit/fixtures.js';
export type { TestClient, TestClientOptions } from './testkit/test-client.js';
export type { EventOf, EventTypeOf, WaitForOptions, WebhookInbox, WebhookInboxOptions } from './testkit/webhook-inbox.js';
export type { Cardholder, CardholderOptions } from './testkit/cardholder.js';
export type { ByKey } from './testkit/by-key.js';
export type { FaultHandle, MockFaults } from './testkit/faults.js';
export { FaultOptionError, type FaultInfo, type FaultOptions } from './testkit/fault-options.js';
export type { FaultStatus } from './core/faults.js';
export type { EventOfType, TestKit, TriggeredEvent } from './testkit/test-kit.js';
export type { TestKitClock, TestKitFault, TestKitFaults, TestKitMock } from './testkit/test-kit-mock.js';
export type { TriggerOptions } from './testkit/test-kit.js';
export type { TimePassing } from './testkit/trigger/world.js';
export type { Approver, ApproverAnswer, ApproverDecision, ApproverIntent, ApproverOptions } from './testkit/approver.js';
export {
  closedMandateFor,
  createCredentialProvider,
  createMandateAgent,
} from './testkit/credential-provider.js';
export type {
  ClosedMandateSpend,
  CredentialProvider,
  MandateAgent,
  PublicJwk,
} from './testkit/credential-provider.js';
export type { MandateJwk } from './engine/mandates/mandate-types.js';
export { mandateFixtures } from './testkit/mandate-fixtures.js';
export type {
  MandateFixture,
  MandateFixtureExpectation,
  MandateFixtureInput,
  MandateFixtureName,
} from './testkit/mandate-fixtures.js';
