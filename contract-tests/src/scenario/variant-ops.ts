import { CardrailError } from '@cardrail/sdk';
import { expect } from 'vitest';
import type { ScenarioContext, VariantClient } from './context.js';

/**
 * The few calls whose shape differs between the variants (customers vs users, the two card bodies); everything else
 * the steps call through namespaces both clients share.
 */

export function owners(vc: VariantClient) {
  return vc.variant === 'customer' ? vc.client.customers : vc.client.users;
}

export async function createOwner(ctx: ScenarioContext, email: string): Promise<string> {
  const owner = await owners(ctx.vc).create({
    type: 'consumer',
    email,
    name: { first: 'Ada', last: 'Lovelace' },
    metadata: { suite: 'contract' },
  });
  return owner.id;
}

export interface CardSpec {
  agentId: string;
  single?: boolean;
  merchantHint?: string;
  /** A card that expires soon: `ttlMinutes` 60 in the customer variant, `ttlDays` 1 in the user variant. */
  expiring?: boolean;
  perAuth?: number;
}

/** Issues a card in the variant's own body shape and returns its id. */
export async function issueCard(ctx: ScenarioContext, spec: CardSpec): Promise<string> {
  const vc = ctx.vc;
  if (vc.variant === 'customer') {
    const card = await vc.client.cards.create({
      customerId: ctx.ids.get('owner') as string,
      agentId: spec.agentId,
      type: 'virtual',
      usage: spec.single ? 'single' : 'multi',
      ...(spec.merchantHint ? { merchantHint: spec.merchantHint } : {}),
      ...(spec.expiring ? { policy: { ttlMinutes: 60 } } : {}),
      ...(spec.perAuth ? { policy: { limits: { perAuth: spec.perAuth } } } : {}),
    });
    return card.id;
  }
  const card = await vc.client.cards.create({
    agentId: spec.agentId,
    type: spec.single ? 'single' : 'multi',
    purpose: 'contract tests',
    ...(spec.merchantHint ? { merchantHint: spec.merchantHint } : {}),
    ...(spec.expiring ? { ttlDays: 1 } : {}),
    ...(spec.perAuth ? { limits: { perAuth: spec.perAuth } } : {}),
  });
  return card.id;
}

export async function cardStatus(vc: VariantClient, cardId: string): Promise<string> {
  return (await vc.client.cards.retrieve(cardId)).status;
}

/** The status a frozen card reports in each variant. */
export const FROZEN = 'frozen';
export const CLOSED = 'closed';

/** A simulated authorization at a merchant; resolves to the transaction. */
export async function authorize(
  ctx: ScenarioContext,
  cardId: string,
  amount: number,
  merchant: string,
  extra: { threeDS?: boolean; mcc?: string } = {},
): Promise<{ id: string; status: string; declinedReason?: string | null }> {
  const txn = await ctx.vc.client.simulate.authorize({
    cardId,
    amount,
    currency: 'usd',
    merchant: { name: merchant, mcc: extra.mcc ?? '5734' },
    ...(extra.threeDS ? { threeDS: true } : {}),
  });
  return txn as { id: string; status: string; declinedReason?: string | null };
}

/** Asserts that a call fails with a CardrailError of this status (and code, when given). */
export async function expectApiError(call: Promise<unknown>, status: number, code?: string): Promise<CardrailError> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, `expected a ${status} error`).toBeInstanceOf(CardrailError);
  const apiError = error as CardrailError;
  expect({ status: apiError.status, ...(code ? { code: apiError.code } : {}) }).toEqual({ status, ...(code ? { code } : {}) });
  return apiError;
}

/** The HTTP status a call ended with: 200 for success, the error's status otherwise. */
export async function statusOf(call: Promise<unknown>): Promise<number | undefined> {
  return call.then(
    () => 200,
    (e: unknown) => (e instanceof CardrailError ? e.status : undefined),
  );
}
