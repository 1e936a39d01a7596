import { balanceOf } from '../../domain/balances.js';
import type { AccessRecord } from '../attestation.js';
import type { CardScope } from '../card-scope.js';
import type { Tenant } from '../../core/tenant.js';
import { engineState } from '../engine-state.js';
import { isUsable, type IntentRecord } from '../intents/intent-record.js';
import type { DeclineReason, Merchant } from '../types.js';
import { evaluateSpend, type Decision, type MandateOutcome } from './evaluate-spend.js';

/** What a spend by payment token changes in the inputs of its decision (docs/payment-tokens.md). */
export interface DecisionOverrides {
  /** The credential access that attests the spend in place of the card's latest one: a token's issue. */
  access?: AccessRecord | undefined;
  /** The intents to match in place of the card's usable ones (oldest first). */
  intents?: readonly IntentRecord[] | undefined;
  /** An intent of the card to match before the others (the token's, while it is usable). */
  preferredIntentId?: string | null | undefined;
  /** An AP2 mandate presented (or the token's) and what became of it: `requireMandate` holds when one verified. */
  mandate?: MandateOutcome | undefined;
}

/** Collects the same inputs `evaluateSpend` reads, for an authorization or an evaluation now. */
export function decide(
  tenant: Tenant,
  scope: CardScope,
  amount: number,
  merchant: Partial<Merchant> | undefined,
  overrides: DecisionOverrides = {},
): Decision {
  const state = engineState(tenant);
  const now = tenant.now();
  let usableIntents =
    overrides.intents ?? [...state.openIntents(scope.card.id).values()].filter((intent) => isUsable(intent, now));
  const preferred = usableIntents.find((intent) => intent.id === overrides.preferredIntentId);
  if (preferred) usableIntents = [preferred, ...usableIntents.filter((intent) => intent !== preferred)];
  return evaluateSpend({
    now,
    card: scope.card,
    agent: scope.agent,
    customer: scope.customer,
    policy: scope.policy,
    cardState: state.cardState(scope.card.id),
    agentState: scope.card.agentId ? state.agentState(scope.card.agentId) : undefined,
    available: balanceOf(tenant, scope.card.customerId).available,
    risk: state.risk,
    amount,
    merchant,
    lastAccess: overrides.access ?? state.lastAccess.get(scope.card.id) ?? null,
    usableIntents,
    mandate: overrides.mandate,
  });
}

/**
 * A decision made before any rule of the card is read: an authorization whose payment token's own checks failed
 * is declined with that reason, and nothing else is evaluated or changed.
 */
export function declinedBeforeRules(reason: DeclineReason, message: string): Decision {
  return {
    decision: 'decline',
    reasons: [{ code: reason, message }],
    declinedReason: reason,
    flags: {},
    attested: false,
    intent: null,
    anomalies: [],
    riskAction: null,
    requestedRiskAction: null,
    cardBreach: null,
    agentBreach: null,
    drift: null,
    unattestedBlock: false,
    inCooldown: false,
  };
}
