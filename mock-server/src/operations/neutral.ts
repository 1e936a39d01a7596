import type { CustomerOperationId } from '@cardrail/spec/operations';
import type { ApiKeyRecord } from '../core/directory.js';
import type { StoredEventType } from '../core/event-types.js';
import type { Tenant } from '../core/tenant.js';
import type { Variant } from '../core/variant.js';
import type { Policy, SpendingLimit } from '../domain/types.js';
import type { ServerServices } from './services.js';
import type { NoParameters, WireInput } from './wire.js';

/**
 * The operations the mock implements once for both variants, named by the customer variant's operationIds (the
 * general description's). The user variant maps its own operationIds to these (variants/user.ts): `createUser` is
 * `createCustomer`, and so on.
 */
export type NeutralOperationId = CustomerOperationId;

/** A card to issue, whichever variant asked: the customer variant names its customer, the user variant only its agent. */
interface CardCreateInput {
  customerId?: string;
  agentId?: string;
  type?: 'virtual' | 'physical';
  usage?: 'single' | 'multi';
  purpose?: string;
  limits?: SpendingLimit;
  policy?: Policy;
  merchantHint?: string;
  billing?: Record<string, unknown>;
  configuration?: Record<string, unknown>;
}

/** A change of a card: its settings (the user variant's `limits` are its policy's limits), and freeze or unfreeze. */
interface CardChangeInput {
  status?: 'active' | 'frozen';
  policy?: Policy;
  policyLimits?: Policy['limits'];
  billing?: Record<string, unknown>;
  configuration?: Record<string, unknown>;
}

/** A webhook subscription: its event types as stored (each variant names them its own way), or `*`. */
interface WebhookInput {
  url: string;
  events: (StoredEventType | '*')[];
  description?: string;
  /** Whether deliveries carry the Standard Webhooks headers beside Cardrail-Signature. */
  standardWebhooks?: boolean;
}

/** Inputs no variant carries as they are: each variant decodes its wire input into these. */
interface DecodedInputs {
  createCard: { params: NoParameters; query: NoParameters; body: CardCreateInput };
  updateCard: { params: { cardId: string }; query: NoParameters; body: CardChangeInput };
  listEvents: { params: NoParameters; query: { limit?: number; cursor?: string; type?: StoredEventType }; body: undefined };
  /** `secret`: the caller's own signing secret (an extension), instead of a new random one. */
  createWebhook: { params: NoParameters; query: NoParameters; body: WebhookInput & { secret?: string } };
  updateWebhook: {
    params: { webhookId: string };
    query: NoParameters;
    body: Partial<WebhookInput> & { status?: 'active' | 'disabled' };
  };
}

/** What a neutral handler receives: the decoded input, or the customer variant's wire input where both agree. */
export type NeutralInput<Id extends NeutralOperationId> = Id extends keyof DecodedInputs
  ? DecodedInputs[Id]
  : WireInput<'customer', Id>;

/** Everything a neutral handler gets for one validated request. */
export type NeutralContext<Id extends NeutralOperationId> = NeutralInput<Id> & {
  tenant: Tenant;
  /** The caller's variant: recorded where it decides later behaviour (a webhook's envelope), never to shape output. */
  variant: Variant;
  apiKey: ApiKeyRecord;
  services: ServerServices;
};

/**
 * Implements one operation for both variants: takes the neutral input, returns a neutral record (or a page of them);
 * each variant's codec renders it as that variant's documented response. Throws HttpError for 4xx answers.
 */
type NeutralHandler<Id extends NeutralOperationId> = (ctx: NeutralContext<Id>) => unknown;

/** Every neutral operation's handler. */
export type NeutralHandlers = { [Id in NeutralOperationId]: NeutralHandler<Id> };
