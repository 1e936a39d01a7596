import type { PolicyChange, Tenant } from '../core/tenant.js';
import { cards, closeCard, markCardFrozen, markCardTtlExpired, setCardExpiry, type CardRecord } from '../domain/cards.js';
import { scopeOf, type CardScope } from './card-scope.js';
import { engineState } from './engine-state.js';
import type { EpochMs, Policy } from './types.js';

const MINUTE_MS = 60_000;

/** The card's time-to-live in minutes: the smaller of `ttlMinutes` and `ttlDays` of its merged policy. */
function ttlMinutesOf(policy: Policy): number | null {
  const candidates = [policy.ttlMinutes, policy.ttlDays === undefined ? undefined : policy.ttlDays * 1440].filter(
    (value): value is number => value !== undefined,
  );
  return candidates.length === 0 ? null : Math.min(...candidates);
}

export function expiresAtOf(card: CardRecord, policy: Policy): EpochMs | null {
  const minutes = ttlMinutesOf(policy);
  return minutes === null ? null : card.createdAt + minutes * MINUTE_MS;
}

/** A card that is not closed. */
type OpenCard = CardRecord & { status: Exclude<CardRecord['status'], 'closed'> };

/** Whether a card can still expire: not closed, and its expiry has not run yet. */
function canExpire(card: CardRecord): card is OpenCard {
  return card.status !== 'closed' && card.ttlExpiredAt === null;
}

/**
 * (Re)arms a card's TTL on the tenant's test clock after it was created or its policy (or its agent's or customer's)
 * changed, and records `expiresAt` on the card. A card that already expired is not armed again.
 */
export function scheduleCardTtl(tenant: Tenant, cardId: string): void {
  const state = engineState(tenant);
  state.ttlTimers.get(cardId)?.cancel();
  state.ttlTimers.delete(cardId);
  const card = cards.of(tenant).get(cardId);
  if (!card || !canExpire(card)) return;
  const expiresAt = expiresAtOf(card, scopeOf(tenant, card).policy);
  setCardExpiry(tenant, card, expiresAt);
  if (expiresAt === null) return;
  const handle = tenant.scheduler.schedule(expiresAt, () => expireCard(tenant, cardId), `card ttl ${cardId}`);
  state.ttlTimers.set(cardId, handle);
}

/** After a restore: every card that can still expire gets its TTL timer again (its records are already in place). */
export function rearmAllTtls(tenant: Tenant): void {
  for (const [, card] of cards.of(tenant).entries())
    if (canExpire(card) && card.expiresAt !== null) scheduleCardTtl(tenant, card.id);
}

/** Re-arms the TTL of every open card a policy change of this customer, agent or card applies to. */
export function rearmTtlsUnder(tenant: Tenant, owner: PolicyChange): void {
  if (owner.owner === 'card') {
    scheduleCardTtl(tenant, owner.id);
    return;
  }
  // Only the owner's own cards are visited (indexed by agent or customer), never the whole collection.
  const where = owner.owner === 'agent' ? { agentId: owner.id } : { customerId: owner.id };
  const open = [...cards.of(tenant).values(where)].filter((card) => card.status !== 'closed');
  for (const card of open) scheduleCardTtl(tenant, card.id);
}

/** Runs a card's expiry now if its TTL has passed (an authorization may arrive before the timer ran). */
export function expireCardIfDue(tenant: Tenant, scope: CardScope): void {
  if (!canExpire(scope.card)) return;
  const expiresAt = expiresAtOf(scope.card, scope.policy);
  if (expiresAt !== null && tenant.now() >= expiresAt) expireCard(tenant, scope.card.id, scope);
}

/**
 * The TTL is reached: `card.expired` (action from the policy's `ttlAction`, default `close`), then for `close`
 * the platform's `card.closed` with reason `ttl_expired`; for `freeze` the card is frozen.
 */
function expireCard(tenant: Tenant, cardId: string, loaded?: CardScope): void {
  const state = engineState(tenant);
  state.ttlTimers.delete(cardId);
  const card = loaded?.card ?? cards.of(tenant).get(cardId);
  if (!card || !canExpire(card)) return;
  const { policy } = loaded ?? scopeOf(tenant, card);
  const expiresAt = expiresAtOf(card, policy);
  const ttlMinutes = ttlMinutesOf(policy);
  if (expiresAt === null || ttlMinutes === null) return;
  if (tenant.now() < expiresAt) {
    scheduleCardTtl(tenant, cardId);
    return;
  }
  markCardTtlExpired(tenant, card);
  const action = policy.ttlAction ?? 'close';
  tenant.emit('card.expired', {
    cardId,
    agentId: card.agentId,
    userId: card.customerId,
    action,
    previousStatus: card.status,
    newStatus: action === 'close' ? 'closed' : 'frozen',
    expiresAt,
    ttlMinutes,
    reason: 'ttl_expired',
  });
  if (action === 'close') closeCard(tenant, card, 'ttl_expired', 'system');
  else if (card.status !== 'frozen') markCardFrozen(tenant, card);
}
