import { defineCollection, type Tenant } from '../../core/tenant.js';
import type { AccessRecord } from '../attestation.js';
import type { CardScope } from '../card-scope.js';
import type { TransactionRecord } from '../records.js';
import { checkConstraints, type MandateSpend } from './mandate-constraints.js';
import type { PresentedMandate } from './mandate-presentation.js';
import { type MandateRefusal, unverifiable } from './mandate-refusal.js';
import type { BoundMandate } from './mandate-types.js';

/**
 * What a spend was given: a presentation verified so far, one refused already, the mandate the payment token it is
 * made with was minted under (`bound`), or none.
 */
export type MandateInput = PresentedMandate | MandateRefusal | { bound: BoundMandate } | undefined;

/** What the mandate decides of a spend, before any rule of the card. */
export interface MandateGate {
  declinedBy: { reason: 'mandate_required' | MandateRefusal['reason']; message: string } | null;
  /** The mandate recorded on the transaction: any presentation whose signatures verified, or the token's. */
  mandate: TransactionRecord['mandate'];
  /** A verified presentation attests the spend, as a payment token's issue does. */
  access: AccessRecord | null;
  /** Marks the presentation used (its nonce and closed mandate), refused or not: an authorization, a token's mint. */
  usePresentation(): void;
  /** Counts an approved spend against the open mandate (its budget and recurrence). */
  recordSpend(amount: number): void;
}

/** One use of a mandate: a nonce, a closed mandate (its reference) or an open mandate (its hash, with its spends). */
interface MandateUseRecord {
  id: string;
  count: number;
  spent: number;
}
const mandateUses = defineCollection<MandateUseRecord>('engine.mandateUses');

/** A nonce is at most this long (it is kept to refuse a replay). */
const MAX_NONCE_LENGTH = 256;

const noGate: MandateGate = {
  declinedBy: null,
  mandate: null,
  access: null,
  usePresentation: () => {},
  recordSpend: () => {},
};

const isRecurring = (constraints: unknown) =>
  Array.isArray(constraints) && constraints.some((c) => (c as { type?: unknown } | null)?.type === 'payment.agent_recurrence');

/**
 * The mandate's part of a spend (docs/mandates.md#verification): none where `requireMandate` holds is
 * `mandate_required`; a nonce, closed mandate or (without `payment.agent_recurrence`) open mandate seen before is a
 * replay (`mandate_unverifiable`); then the closed mandate against the spend and every constraint of the open one
 * (`mandate_rejected` naming it). A payment token's mandate was verified when the token was minted: its open
 * mandate's replay and constraints are checked again, against this spend. Synchronous, so that two authorizations
 * cannot both take one use; nothing is recorded until the caller says so, so an evaluation changes nothing.
 */
export function gateMandate(tenant: Tenant, scope: CardScope, input: MandateInput, spend: MandateSpend): MandateGate {
  if (input === undefined) {
    if (scope.policy.requireMandate !== true) return noGate;
    return {
      ...noGate,
      declinedBy: {
        reason: 'mandate_required',
        message: 'The policy requires an AP2 mandate (agentMandate) for every authorization and payment token.',
      },
    };
  }
  if ('reason' in input) return { ...noGate, declinedBy: input };
  const uses = mandateUses.of(tenant);
  const presented = 'bound' in input ? null : input;
  const { openMandateHash, reference, constraints } =
    'bound' in input
      ? input.bound
      : { ...input, reference: input.presentation.reference, constraints: input.presentation.open.constraints };
  const mandate = { openMandateHash, reference, receipt: null };
  const openId = `open:${openMandateHash}`;
  const open = uses.get(openId) ?? { id: openId, count: 0, spent: 0 };
  const nonce = presented?.presentation.nonce ?? '';
  const nonceId = `nonce:${scope.card.customerId}:${nonce}`;
  const referenceId = `reference:${reference}`;
  const gate = (declinedBy: MandateRefusal | null, access: AccessRecord | null): MandateGate => ({
    declinedBy,
    mandate,
    access,
    usePresentation: () => {
      if (!presented) return;
      if (nonce.length <= MAX_NONCE_LENGTH && !uses.get(nonceId)) uses.insert({ id: nonceId, count: 1, spent: 0 });
      if (!uses.get(referenceId)) uses.insert({ id: referenceId, count: 1, spent: 0 });
    },
    recordSpend: (amount) => {
      if (uses.get(openId))
        uses.update(openId, (use) => {
          use.count += 1;
          use.spent += amount;
        });
      else uses.insert({ id: openId, count: 1, spent: amount });
    },
  });
  if (presented) {
    if (nonce.length > MAX_NONCE_LENGTH) return gate(unverifiable(`the nonce is longer than ${MAX_NONCE_LENGTH}`), null);
    if (uses.get(nonceId) || uses.get(referenceId))
      return gate(unverifiable('replay: this presentation (its nonce or closed mandate) was presented before'), null);
  }
  if (!isRecurring(constraints) && open.count > 0)
    return gate(unverifiable('replay: this open mandate, which has no payment.agent_recurrence, already paid'), null);
  const refusal = presented?.closedRefusal ?? checkConstraints(constraints, spend, open);
  if (refusal) return gate(refusal, null);
  // A token's issue attests its spend already; a presentation stands in for a credential access.
  if (!presented) return gate(null, null);
  return gate(null, {
    id: 'agent-mandate',
    cardId: scope.card.id,
    agentId: scope.card.agentId,
    intentId: null,
    summary: `AP2 mandate ${openMandateHash}`,
    expectedAmount: spend.amount,
    exposureMode: 'rawPan',
    at: spend.now,
    expiresAt: spend.now,
  });
}
