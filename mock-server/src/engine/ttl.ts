import type { PolicyChange } from '../core/tenant.js';
import { loadCardScope, type EngineContext } from './engine-context.js';
import { engineState } from './engine-state.js';
import type { EngineCard, EpochMs, Policy } from './types.js';

const MINUTE_MS = 60_000;

/** The card's time-to-live in minutes: the smaller of `ttlMinutes` and `ttlDays` of its merged policy. */
export function ttlMinutesOf(policy: Policy): number | null {
  const candidates = [policy.ttlMinutes, policy.ttlDays === undefined ? undefined : policy.ttlDays * 1440].filter(
    (value): value is number => value !== undefined,
  );
  return candidates.length === 0 ? null : Math.min(...candidates);
}

export function expiresAtOf(card: EngineCard, policy: Policy): EpochMs | null {
  const minutes = ttlMinutesOf(policy);
  return minutes === null ? null : card.createdAt + minutes * MINUTE_MS;
}

/**
 * (Re)arms a card's TTL on the tenant's test clock after it was created or its policy (or its agent's or customer's)
 * changed, and records `expiresAt` on the card. A card that already expired is not armed again.
 */
export function scheduleCardTtl(ctx: EngineContext, cardId: string): void {
  const state = engineState(ctx.tenant);
  state.ttlTimers.get(cardId)?.cancel();
  state.ttlTimers.delete(cardId);
  const card = ctx.platform.card(ctx.tenant, cardId);
  if (!card || card.status === 'closed' || state.expiredCards.has(cardId)) return;
  const { policy } = loadCardScope(ctx, cardId);
  const expiresAt = expiresAtOf(card, policy);
  ctx.platform.recordCardFields(ctx.tenant, cardId, { expiresAt });
  if (expiresAt === null) return;
  const handle = ctx.tenant.scheduler.schedule(expiresAt, () => expireCard(ctx, cardId), `card ttl ${cardId}`);
  state.ttlTimers.set(cardId, handle);
}

/** Re-arms the TTL of every open card a policy change of this customer, agent or card applies to. */
export function rearmTtlsUnder(ctx: EngineContext, owner: PolicyChange): void {
  for (const cardId of ctx.platform.openCardIdsUnder(ctx.tenant, owner)) scheduleCardTtl(ctx, cardId);
}

/** Runs a card's expiry now if its TTL has passed (an authorization may arrive before the timer ran). */
export function expireCardIfDue(ctx: EngineContext, cardId: string): void {
  const card = ctx.platform.card(ctx.tenant, cardId);
  if (!card || card.status === 'closed' || engineState(ctx.tenant).expiredCards.has(cardId)) return;
  const expiresAt = expiresAtOf(card, loadCardScope(ctx, cardId).policy);
  if (expiresAt !== null && ctx.tenant.now() >= expiresAt) expireCard(ctx, cardId);
}

/**
 * The TTL is reached: `card.expired` (action from the policy's `ttlAction`, default `close`), then for `close`
 * the platform's `card.closed` with reason `ttl_expired`; for `freeze` the card is frozen.
 */
export function expireCard(ctx: EngineContext, cardId: string): void {
  const state = engineState(ctx.tenant);
  state.ttlTimers.delete(cardId);
  const card = ctx.platform.card(ctx.tenant, cardId);
  if (!card || card.status === 'closed' || state.expiredCards.has(cardId)) return;
  const { policy } = loadCardScope(ctx, cardId);
  const expiresAt = expiresAtOf(card, policy);
  const ttlMinutes = ttlMinutesOf(policy);
  if (expiresAt === null || ttlMinutes === null) return;
  if (ctx.tenant.now() < expiresAt) {
    scheduleCardTtl(ctx, cardId);
    return;
  }
  state.expiredCards.add(cardId);
  const action = policy.ttlAction ?? 'close';
  ctx.tenant.emit('card.expired', {
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
  if (action === 'close') ctx.platform.closeCard(ctx.tenant, cardId, 'ttl_expired');
  else if (card.status !== 'frozen') ctx.platform.setCardStatus(ctx.tenant, cardId, 'frozen');
}
