import type { AgentSpendState, CardSpendState } from '../aggregates/spend-state.js';
import { DEFAULT_ATTESTATION_WINDOW_MINUTES, isAttested, type AccessRecord } from '../attestation.js';
import type { IntentRecord } from '../intents/intent-record.js';
import { matchIntents, type IntentMatch } from '../intents/intent-matching.js';
import { agentLimitSet, cardLimitSet } from '../policy/card-policy.js';
import { normalizeName } from '../policy/merge-policies.js';
import { strongestAction, type Anomaly, type RiskAction } from '../risk/anomaly.js';
import { detectAnomalies } from '../risk/detectors.js';
import type { RiskConfig } from '../risk/risk-config.js';
import type { DeclineReason, AgentRecord, CardRecord, CustomerRecord, EpochMs, Merchant, Policy, SpendReason } from '../types.js';
import { breachMessage, findBreaches, type LimitBreach } from './limit-check.js';

const MINUTE_MS = 60_000;

/** Everything one decision reads. Nothing in it is changed by `evaluateSpend`. */
export interface DecisionInput {
  now: EpochMs;
  card: CardRecord;
  agent: AgentRecord | undefined;
  customer: CustomerRecord | undefined;
  /** The card's merged policy (customer, agent, card). */
  policy: Policy;
  cardState: CardSpendState;
  agentState: AgentSpendState | undefined;
  available: number;
  risk: RiskConfig;
  amount: number;
  /** The merchant; an evaluation may name only its category, or none. */
  merchant: Partial<Merchant> | undefined;
  lastAccess: AccessRecord | null;
  /** The card's usable intents, oldest first. */
  usableIntents: readonly IntentRecord[];
  /** The AP2 mandate presented with the spend (or its token's), verified or refused; undefined when there is none. */
  mandate?: MandateOutcome | undefined;
}

/** What became of a spend's AP2 mandate: a refused one is the decline reason its refusal names, not a review. */
export type MandateOutcome = 'verified' | 'refused';

/** The decision shared by `POST /spend/evaluate` and `POST /simulate/authorize`, with what led to it. */
export interface Decision {
  decision: 'approve' | 'decline' | 'review';
  /** Decline reasons in priority order, then review reasons. */
  reasons: SpendReason[];
  /** The reason an authorization is declined with: the first decline reason. */
  declinedReason: DeclineReason | null;
  flags: Record<string, boolean>;
  attested: boolean;
  intent: IntentMatch | null;
  anomalies: Anomaly[];
  /** The risk action to take (null in dry run or when every anomaly only alerts). */
  riskAction: RiskAction | null;
  /** The strongest risk action the anomalies ask for, taken or not (reported in dry run). */
  requestedRiskAction: RiskAction | null;
  /**
   * The first card budget (day, week, month, total) broken: the card is frozen. A per-authorization cap only
   * declines, for the card and the agent alike.
   */
  cardBreach: LimitBreach | null;
  /** The first agent budget broken: the agent is suspended (`agent.limit_exceeded`). */
  agentBreach: LimitBreach | null;
  /** A spend at a merchant other than the card's `merchantHint`. */
  drift: { expectedMerchant: string; actualMerchant: string; freeze: boolean } | null;
  /** `requireAttestation` and the spend is unattested: the card is to be frozen (`unattested_spend`). */
  unattestedBlock: boolean;
  inCooldown: boolean;
}

const PRIORITY: readonly DeclineReason[] = [
  'card_closed',
  'card_frozen',
  'fraud_suspected',
  'blocked_mcc',
  'blocked_merchant',
  'spending_limit_exceeded',
  'insufficient_funds',
];

/**
 * Decides an authorization of `amount` at `merchant` on a card now, without changing anything. Closed or frozen
 * cards (and cards of an agent that is not active) stop at once; otherwise every policy rule and every enabled risk
 * detector is evaluated and every reason found is reported, the most serious first.
 */
export function evaluateSpend(input: DecisionInput): Decision {
  const { now, card, agent, policy, amount } = input;
  const merchant: Merchant | undefined =
    input.merchant?.name !== undefined ? { name: input.merchant.name, mcc: input.merchant.mcc } : undefined;
  const found: SpendReason[] = [];
  const add = (code: DeclineReason, message: string) => found.push({ code, message });
  const attested = isAttested(input.lastAccess, now);
  const windowMinutes = policy.attestationWindowMinutes ?? DEFAULT_ATTESTATION_WINDOW_MINUTES;
  const cooldownMinutes = policy.cooldownMinutes ?? 0;
  const inCooldown =
    cooldownMinutes > 0 &&
    input.cardState.lastSpendAt !== null &&
    now < input.cardState.lastSpendAt + cooldownMinutes * MINUTE_MS;
  const intent = matchIntents(input.usableIntents, amount, merchant?.name);
  const base: Decision = {
    decision: 'approve',
    reasons: [],
    declinedReason: null,
    flags: {},
    attested,
    intent,
    anomalies: [],
    riskAction: null,
    requestedRiskAction: null,
    cardBreach: null,
    agentBreach: null,
    drift: null,
    unattestedBlock: false,
    inCooldown,
  };

  if (card.status === 'closed') add('card_closed', 'The card is closed.');
  else if (card.status === 'frozen') add('card_frozen', 'The card is frozen.');
  else if (card.status === 'notActivated') add('card_frozen', 'The card is not activated yet.');
  else if (agent && agent.status !== 'active') add('card_frozen', `The card's agent is ${agent.status}.`);
  if (found.length > 0) return finish(base, found, policy, input);

  // Risk detectors.
  const anomalies = detectAnomalies(input.risk, {
    now,
    amount,
    merchant,
    card,
    state: input.cardState,
    attested,
    lastCredentialAccess: input.lastAccess?.at ?? null,
    intent,
    cooldownMinutes,
  });
  base.anomalies = anomalies;
  base.requestedRiskAction = strongestAction(anomalies, card.agentId !== null);
  base.riskAction = input.risk.dryRun ? null : base.requestedRiskAction;
  if (base.riskAction) {
    add('fraud_suspected', `The risk engine flagged this spend (${base.riskAction.anomaly.type}).`);
  }
  if (policy.requireAttestation && !attested) {
    base.unattestedBlock = true;
    add('fraud_suspected', `The policy requires attestation: no credential access in the last ${windowMinutes} minutes.`);
  }

  // Merchant category rules.
  const mcc = input.merchant?.mcc;
  if (mcc !== undefined && policy.blockedMccs?.includes(mcc)) add('blocked_mcc', `Merchant category ${mcc} is blocked.`);
  else if (policy.allowedMccs && input.merchant && (mcc === undefined || !policy.allowedMccs.includes(mcc))) {
    add('blocked_mcc', `Merchant category ${mcc ?? '(none)'} is not among the allowed categories.`);
  }

  // Merchant rules.
  if (merchant) {
    const name = normalizeName(merchant.name);
    if (policy.allowedMerchants && !policy.allowedMerchants.some((allowed) => normalizeName(allowed) === name)) {
      add('blocked_merchant', `Merchant ${merchant.name} is not among the allowed merchants.`);
    }
    if (card.merchantLock !== null && normalizeName(card.merchantLock) !== name) {
      add('blocked_merchant', `The card is locked to ${card.merchantLock}.`);
    }
    if (card.merchantHint !== null && normalizeName(card.merchantHint) !== name) {
      const freeze = policy.onDrift === 'freeze';
      base.drift = { expectedMerchant: card.merchantHint, actualMerchant: merchant.name, freeze };
      if (freeze) add('blocked_merchant', `The card is meant for ${card.merchantHint}, not ${merchant.name}.`);
    }
  }

  // Limits and cooldown.
  const cardBreaches = findBreaches('card', cardLimitSet(policy, card), input.cardState.sums, amount, now);
  const agentBreaches = agent ? findBreaches('agent', agentLimitSet(agent), input.agentState?.sums, amount, now) : [];
  for (const breach of [...cardBreaches, ...agentBreaches]) add('spending_limit_exceeded', breachMessage(breach, amount));
  base.cardBreach = cardBreaches.find((b) => b.window !== 'perAuth') ?? null;
  base.agentBreach = agentBreaches.find((b) => b.window !== 'perAuth') ?? null;
  if (inCooldown && input.cardState.lastSpendAt !== null) {
    const endsAt = new Date(input.cardState.lastSpendAt + cooldownMinutes * MINUTE_MS).toISOString();
    add('spending_limit_exceeded', `The card is in its ${cooldownMinutes}-minute cooldown until ${endsAt}.`);
  }

  if (amount > input.available) {
    add('insufficient_funds', `The amount ${amount} exceeds the available balance of ${input.available}.`);
  }

  return finish(base, found, policy, input);
}

function finish(base: Decision, found: SpendReason[], policy: Policy, input: DecisionInput): Decision {
  // `found` holds decline reasons only (reviews are added below), so its codes are DeclineReasons.
  const declines = [...found].sort(
    (a, b) => PRIORITY.indexOf(a.code as DeclineReason) - PRIORITY.indexOf(b.code as DeclineReason),
  );
  const reviews: SpendReason[] = [];
  const hasIntent = input.usableIntents.length > 0;
  if (policy.requireIntent && !hasIntent) {
    reviews.push({ code: 'intent_required', message: 'The policy requires an intent before this spend; declare one first.' });
  }
  const autoApproved = policy.autoApproveBelow !== undefined && input.amount < policy.autoApproveBelow;
  if (policy.requireApproval && !hasIntent && !autoApproved) {
    reviews.push({ code: 'approval_required', message: 'The policy requires a human to approve an intent for this amount.' });
  }
  if (policy.requireMandate && input.mandate === undefined) {
    reviews.push({
      code: 'mandate_required',
      message: 'The policy requires an AP2 mandate (agentMandate) with every authorization.',
    });
  }
  base.reasons = [...declines, ...reviews];
  base.declinedReason = (declines[0]?.code as DeclineReason | undefined) ?? null;
  base.decision = declines.length > 0 ? 'decline' : reviews.length > 0 ? 'review' : 'approve';
  base.flags = {
    requiresIntent: policy.requireIntent === true,
    requiresAttestation: policy.requireAttestation === true,
    requiresApproval: policy.requireApproval === true,
    requiresMandate: policy.requireMandate === true,
    mandateVerified: input.mandate === 'verified',
    attested: base.attested,
    inCooldown: base.inCooldown,
    hasUsableIntent: hasIntent,
    singleUse: input.card.usage === 'single',
    merchantLocked: input.card.merchantLock !== null,
    dryRun: input.risk.dryRun,
  };
  return base;
}
