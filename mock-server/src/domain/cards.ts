import type { EpochMs } from '../core/clock.js';
import type { IdFactory } from '../core/ids.js';
import type { ApiSchemas } from '../core/stored.js';
import { defineCollection, type Tenant } from '../core/tenant.js';
import { invalidState, notFound } from '../core/errors.js';
import { withLuhnCheckDigit } from '../core/luhn.js';
import type { Actor, Policy, SpendingLimit } from './types.js';

/** Every status a stored card can have: the customer variant's CardStatus plus the user variant's `notActivated`. */
export type CardStatus = ApiSchemas['CardStatus'] | 'notActivated';
export type CardFrozenReason = 'manual' | 'agent_suspended' | 'spending_limit_exceeded' | 'unattested_spend' | 'merchant_drift';
export type CardClosedReason = 'manual' | 'single_use_completed' | 'ttl_expired' | 'agent_deleted';

/**
 * One card, holding the fields of both variants' shapes (docs/variants.md#glossary-of-differences): the customer variant reads
 * `usage`, `limits` and `policy`; the user variant reads `usage` as `type`, `policy.limits` as `limits`, and
 * `purpose`, `merchantHint`, `policy.ttlDays`, `policy.requireApproval`, `policy.autoApproveBelow`.
 */
export interface CardRecord {
  id: string;
  customerId: string;
  agentId: string | null;
  type: 'virtual' | 'physical';
  usage: 'single' | 'multi';
  status: CardStatus;
  purpose: string;
  pan: string;
  cvc: string;
  last4: string;
  expMonth: string;
  expYear: string;
  limits: SpendingLimit | null;
  policy: Policy;
  merchantLock: string | null;
  merchantHint: string | null;
  expiresAt: EpochMs | null;
  lastSpendAt: EpochMs | null;
  firstSpendAt: EpochMs | null;
  singleUseConsumedAt: EpochMs | null;
  billing: Record<string, unknown> | null;
  configuration: Record<string, unknown> | null;
  /** Why the card is frozen or closed, while it is. */
  frozenReason: CardFrozenReason | null;
  closedReason: CardClosedReason | null;
  /** When the card's time-to-live ran out (its expiry ran once and never runs again); null until then. */
  ttlExpiredAt: EpochMs | null;
  createdAt: EpochMs;
}

export const cards = defineCollection<CardRecord>('cards', {
  filters: {
    customerId: (card) => card.customerId,
    agentId: (card) => card.agentId ?? undefined,
    status: (card) => card.status,
  },
});

export function requireCard(tenant: Tenant, id: string): CardRecord {
  const card = cards.of(tenant).get(id);
  if (!card) throw notFound();
  return card;
}

export interface CardInput {
  customerId: string;
  agentId: string | null;
  type?: 'virtual' | 'physical';
  usage?: 'single' | 'multi';
  purpose?: string;
  limits?: SpendingLimit | null;
  policy?: Policy;
  merchantHint?: string | null;
  billing?: Record<string, unknown> | null;
  configuration?: Record<string, unknown> | null;
}

/** Issues an active card with a Luhn-valid test number, and emits `card.created`. */
export function createCard(tenant: Tenant, input: CardInput): CardRecord {
  const now = tenant.now();
  const pan = testPan(tenant.ids);
  const expiry = new Date(now);
  const policy = input.policy ?? {};
  const card = cards.of(tenant).insert({
    id: tenant.ids.next('card'),
    customerId: input.customerId,
    agentId: input.agentId,
    type: input.type ?? 'virtual',
    usage: input.usage ?? 'multi',
    status: 'active',
    purpose: input.purpose ?? '',
    pan,
    cvc: tenant.ids.digits(3),
    last4: pan.slice(-4),
    expMonth: String(expiry.getUTCMonth() + 1).padStart(2, '0'),
    expYear: String(expiry.getUTCFullYear() + 3),
    limits: input.limits ?? null,
    policy,
    merchantLock: null,
    merchantHint: input.merchantHint ?? null,
    // The TTL comes from the merged customer, agent and card policy: the engine's TTL (engine/ttl.ts) sets it.
    expiresAt: null,
    lastSpendAt: null,
    firstSpendAt: null,
    singleUseConsumedAt: null,
    billing: input.billing ?? null,
    configuration: input.configuration ?? null,
    frozenReason: null,
    closedReason: null,
    ttlExpiredAt: null,
    createdAt: now,
  });
  tenant.emit('card.created', {
    cardId: card.id,
    agentId: card.agentId,
    userId: card.customerId,
    type: card.usage,
    purpose: card.purpose,
    last4: card.last4,
    status: card.status,
  });
  return card;
}

/** A change of a card's settings (not its status): the customer variant's fields, or the user variant's limits. */
export interface CardPatch {
  policy?: Policy;
  /** The user variant's `limits`, kept as the card's `policy.limits`. */
  policyLimits?: Policy['limits'];
  billing?: Record<string, unknown>;
  configuration?: Record<string, unknown>;
}

/**
 * Applies a settings change to a card that is not closed (400 invalid_state otherwise) and, when its policy
 * changed, tells the tenant's policy-change listeners (the engine moves the card's TTL and its `expiresAt`).
 */
export function updateCardSettings(tenant: Tenant, card: CardRecord, patch: CardPatch): CardRecord {
  if (card.status === 'closed') throw invalidState('The card is closed.', { status: card.status });
  const policyChanged = patch.policy !== undefined || patch.policyLimits !== undefined;
  cards.of(tenant).update(card.id, (record) => {
    if (patch.policy !== undefined) record.policy = patch.policy;
    if (patch.policyLimits !== undefined) record.policy = { ...record.policy, limits: patch.policyLimits };
    if (patch.billing !== undefined) record.billing = patch.billing;
    if (patch.configuration !== undefined) record.configuration = patch.configuration;
  });
  if (policyChanged) tenant.policyChanged({ owner: 'card', id: card.id });
  return card;
}

/**
 * active -> frozen with `card.frozen`. Freezing a frozen card changes nothing (no event); a closed card cannot be
 * frozen (400 invalid_state). Returns whether the card changed.
 */
export function freezeCard(tenant: Tenant, card: CardRecord, reason: CardFrozenReason, by: Actor): boolean {
  if (card.status === 'closed') throw invalidState('The card is closed.', { status: card.status });
  if (card.status === 'frozen') return false;
  cards.of(tenant).update(card.id, (record) => {
    record.status = 'frozen';
    record.frozenReason = reason;
  });
  tenant.emit('card.frozen', { cardId: card.id, agentId: card.agentId, reason, frozenBy: by });
  return true;
}

/** frozen -> active (no event: docs/resources.md#card). Unfreezing an active card changes nothing. */
export function unfreezeCard(tenant: Tenant, card: CardRecord): boolean {
  if (card.status === 'closed') throw invalidState('The card is closed.', { status: card.status });
  if (card.status === 'active') return false;
  cards.of(tenant).update(card.id, (record) => {
    record.status = 'active';
    record.frozenReason = null;
  });
  return true;
}

/** active or frozen -> closed with `card.closed`; a closed card cannot be closed again (400 invalid_state). */
export function closeCard(tenant: Tenant, card: CardRecord, reason: CardClosedReason, by: Actor): void {
  if (card.status === 'closed') throw invalidState('The card is already closed.', { status: card.status });
  cards.of(tenant).update(card.id, (record) => {
    record.status = 'closed';
    record.closedReason = reason;
    record.frozenReason = null;
  });
  tenant.emit('card.closed', { cardId: card.id, agentId: card.agentId, reason, closedBy: by });
}

/** The card fields the spend engine maintains as the card spends. */
export interface CardSpendFields {
  lastSpendAt?: EpochMs;
  firstSpendAt?: EpochMs;
  singleUseConsumedAt?: EpochMs;
  merchantLock?: string;
}

/** Records what the engine learned from an approved spend (no event: the transaction's events tell it). */
export function recordCardSpend(tenant: Tenant, card: CardRecord, fields: CardSpendFields): void {
  cards.of(tenant).update(card.id, (record) => {
    if (fields.lastSpendAt !== undefined) record.lastSpendAt = fields.lastSpendAt;
    if (fields.firstSpendAt !== undefined) record.firstSpendAt = fields.firstSpendAt;
    if (fields.singleUseConsumedAt !== undefined) record.singleUseConsumedAt = fields.singleUseConsumedAt;
    if (fields.merchantLock !== undefined) record.merchantLock = fields.merchantLock;
  });
}

/** Records when the card's time-to-live runs out, from its merged policy (null: it never expires). */
export function setCardExpiry(tenant: Tenant, card: CardRecord, expiresAt: EpochMs | null): void {
  cards.of(tenant).update(card.id, (record) => {
    record.expiresAt = expiresAt;
  });
}

/** Records that the card's time-to-live ran out (the engine's expiry, engine/ttl.ts, then closes or freezes it). */
export function markCardTtlExpired(tenant: Tenant, card: CardRecord): void {
  cards.of(tenant).update(card.id, (record) => {
    record.ttlExpiredAt = tenant.now();
  });
}

/**
 * Freezes a card without `card.frozen`, for a freeze another event explains (`card.auto_frozen` of the risk engine,
 * `card.expired` with action freeze): no reason of the `card.frozen` enumeration applies to it.
 */
export function markCardFrozen(tenant: Tenant, card: CardRecord): void {
  cards.of(tenant).update(card.id, (record) => {
    record.status = 'frozen';
    record.frozenReason = null;
  });
}

/** A 16-digit Visa test number (prefix 424242) with a valid Luhn check digit. */
function testPan(ids: IdFactory): string {
  return withLuhnCheckDigit(`424242${ids.digits(9)}`);
}
