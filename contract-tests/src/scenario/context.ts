import { randomBytes } from 'node:crypto';
import { Cardrail, CardrailUsers } from '@cardrail/sdk';
import type { FetchFn } from '../recorder.js';
import type { Variant } from '../spec.js';
import type { WebhookReceiver } from '../webhook-receiver.js';

/** Both clients behind one discriminant, so variant-specific calls narrow and shared namespaces stay typed. */
export type VariantClient = { variant: 'customer'; client: Cardrail } | { variant: 'user'; client: CardrailUsers };

/** The owner field as the variant names it: `customerId` in the customer variant, `userId` in the user variant. */
type OwnerField<V extends Variant> = V extends 'customer' ? { customerId: string } : { userId: string };

/**
 * Calls `call` with the owner named as the client's variant names it. The two clients take different bodies, so the
 * call is made on the narrowed client of each variant.
 */
export function withOwner<A, B>(
  vc: VariantClient,
  owner: string,
  call: {
    customer: (client: Cardrail, field: OwnerField<'customer'>) => A;
    user: (client: CardrailUsers, field: OwnerField<'user'>) => B;
  },
): A | B {
  return vc.variant === 'customer' ? call.customer(vc.client, { customerId: owner }) : call.user(vc.client, { userId: owner });
}

/** A new agent of `owner`, in either variant. */
export async function createAgentFor(
  vc: VariantClient,
  owner: string,
  body: { name: string; [field: string]: unknown },
): Promise<{ id: string }> {
  return withOwner(vc, owner, {
    customer: (client, field) => client.agents.create({ ...field, ...body }),
    user: (client, field) => client.agents.create({ ...field, ...body }),
  });
}

/** A fresh organization: the mock creates one on the first use of any well-formed new key. */
export function newTestKey(): string {
  return `sk_test_ct${randomBytes(12).toString('hex')}`;
}

export function clientFor(variant: Variant, options: { apiKey: string; baseUrl: string; fetch: FetchFn }): VariantClient {
  // No retries: every request the suite makes is seen once by the recorder, and a 5xx is reported, not hidden.
  const config = { ...options, maxRetries: 0, logLevel: 'off' as const };
  return variant === 'customer' ? { variant, client: new Cardrail(config) } : { variant, client: new CardrailUsers(config) };
}

/**
 * The organization's test clock as the suite knows it: the offset it advanced so far, and, while an advance is in
 * flight, the span it is moving through (deliveries made during the advance are signed with times inside it).
 */
export class ClockTracker {
  #offsetMs = 0;
  #pendingMs = 0;

  readonly window = (): { from: number; to: number } => ({
    from: Math.floor(Date.now() / 1000),
    to: Math.floor((Date.now() + this.#offsetMs + this.#pendingMs) / 1000),
  });

  async advance(vc: VariantClient, seconds: number): Promise<void> {
    this.#pendingMs = seconds * 1000;
    try {
      await vc.client.simulate.clock.advance({ seconds });
      this.#offsetMs += seconds * 1000;
    } finally {
      this.#pendingMs = 0;
    }
  }
}

/** What the steps of one variant's run share. */
export interface ScenarioContext {
  variant: Variant;
  vc: VariantClient;
  apiKey: string;
  baseUrl: string;
  fetch: FetchFn;
  receiver: WebhookReceiver;
  clock: ClockTracker;
  /** Ids created by earlier steps, by role (`owner`, `agent`, `card`...). */
  ids: Map<string, string>;
}

export function id(ctx: ScenarioContext, role: string): string {
  const value = ctx.ids.get(role);
  if (value === undefined) throw new Error(`No ${role} id: the step that creates it did not succeed.`);
  return value;
}
