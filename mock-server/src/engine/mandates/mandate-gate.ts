import { defineCollection, type Tenant } from '../../core/tenant.js';
import type { AccessRecord } from '../attestation.js';
import type { CardScope } from '../card-scope.js';
import type { TransactionRecord } from '../records.js';
import { checkConstraints, type MandateSpend } from './mandate-constraints.js';
import type { PresentedMandate } from './mandate-presentation.js';
import { type MandateRefusal, unverifiable } from './mandate-refusal.js';

/** What an authorization was given: a presentation verified so far, one refused already, or none. */
export type MandateInput = PresentedMandate | MandateRefusal | undefined;

/** What the mandate decides of an authorization, before any rule of the card. */
export interface MandateGate {
  declinedBy: { reason: 'mandate_required' | MandateRefusal['reason']; message: string } | null;
  /** The mandate recorded on the transaction: any presentation whose signatures verified. */
  mandate: TransactionRecord['mandate'];
  /** A verified mandate attests the spend, as a payment token's issue does. */
  access: AccessRecord | null;
  /** Records the presentation's use once the authorization is decided (its nonce and leaf: every time). */
  record(approved: boolean, amount: number): void;
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

const noGate: MandateGate = { declinedBy: null, mandate: null, access: null, record: () => {} };

/**
 * The mandate's part of an authorization (docs/mandates.md#verification): none where `requireMandate` holds is
 * `mandate_required`; a nonce, closed mandate or (without `payment.agent_recurrence`) open mandate seen before is a
 * replay (`mandate_unverifiable`); then the closed mandate against the spend and every constraint of the open one
 * (`mandate_rejected` naming it). Synchronous, so that two authorizations cannot both take one use.
 */
export function gateMandate(tenant: Tenant, scope: CardScope, input: MandateInput, spend: MandateSpend): MandateGate {
  if (input === undefined) {
    if (scope.policy.requireMandate !== true) return noGate;
    return {
      ...noGate,
      declinedBy: {
        reason: 'mandate_required',
        message: 'The policy requires an AP2 mandate (agentMandate) for every authorization.',
      },
    };
  }
  if ('reason' in input) return { ...noGate, declinedBy: input };
  const uses = mandateUses.of(tenant);
  const { presentation, openMandateHash } = input;
  const mandate = { openMandateHash, reference: presentation.reference, receipt: null };
  const nonceId = `nonce:${scope.card.customerId}:${presentation.nonce}`;
  const referenceId = `reference:${presentation.reference}`;
  const openId = `open:${openMandateHash}`;
  const open = uses.get(openId) ?? { id: openId, count: 0, spent: 0 };
  const recurring = (presentation.open.constraints as unknown[] | undefined)?.some(
    (c) => (c as { type?: unknown } | null)?.type === 'payment.agent_recurrence',
  );
  const record = (approved: boolean, amount: number) => {
    if (presentation.nonce.length <= MAX_NONCE_LENGTH && !uses.get(nonceId)) uses.insert({ id: nonceId, count: 1, spent: 0 });
    if (!uses.get(referenceId)) uses.insert({ id: referenceId, count: 1, spent: 0 });
    if (!approved) return;
    if (uses.get(openId))
      uses.update(openId, (use) => {
        use.count += 1;
        use.spent += amount;
      });
    else uses.insert({ id: openId, count: 1, spent: amount });
  };
  const refuse = (refusal: MandateRefusal): MandateGate => ({ declinedBy: refusal, mandate, access: null, record });
  if (presentation.nonce.length > MAX_NONCE_LENGTH) return refuse(unverifiable(`the nonce is longer than ${MAX_NONCE_LENGTH}`));
  if (uses.get(nonceId) || uses.get(referenceId))
    return refuse(unverifiable('replay: this presentation (its nonce or closed mandate) was presented before'));
  if (!recurring && open.count > 0)
    return refuse(unverifiable('replay: this open mandate, which has no payment.agent_recurrence, already paid'));
  const refusal = input.closedRefusal ?? checkConstraints(presentation.open.constraints, spend, open);
  if (refusal) return refuse(refusal);
  const access: AccessRecord = {
    id: 'agent-mandate',
    cardId: scope.card.id,
    agentId: scope.card.agentId,
    intentId: null,
    summary: `AP2 mandate ${openMandateHash}`,
    expectedAmount: spend.amount,
    exposureMode: 'rawPan',
    at: spend.now,
    expiresAt: spend.now,
  };
  return { declinedBy: null, mandate, access, record };
}
