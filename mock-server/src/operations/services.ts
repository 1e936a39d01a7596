import type { Directory } from '../core/directory.js';
import type { EventNaming } from '../core/event-naming.js';
import type { ApprovalPage } from '../engine/intents/approval-page.js';
import type { WebhookDispatcher } from '../webhooks/dispatcher.js';

/** Server-wide services a handler may use beyond its own tenant; composition/mock-server.ts makes the one set a mock has. */
export interface ServerServices {
  /** Every organization and mode (tenant), found by API key. */
  directory: Directory;
  /** Signs and delivers webhooks, with their retries. */
  webhooks: WebhookDispatcher;
  /** Event type names per variant (general and catalog names). */
  naming: EventNaming;
  /** The page where a person decides an intent: each new intent's `approvalUrl` (`approvalPage` of the options). */
  approvalPage: ApprovalPage;
  /** How long `POST /simulate/clock/advance` waits for the webhook attempts it starts, in real time (ms). */
  clockAdvanceMaxWaitMs: number;
}
