import { ApiError } from '../http/errors.js';
import { DEFAULT_ATTESTATION_WINDOW_MINUTES, type AccessRecord } from './attestation.js';
import { loadCardScope, type EngineContext } from './engine-context.js';
import { engineState } from './engine-state.js';
import { isUsable, type IntentRecord } from './intents/intent-record.js';
import { accessEvents } from './records.js';
import { expireCardIfDue } from './ttl.js';

export interface CredentialsRequest {
  intentId?: string | undefined;
  summary?: string | undefined;
  expectedAmount?: number | undefined;
  exposureMode?: 'rawPan' | undefined;
}

export interface Credentials {
  cardId: string;
  pan: string;
  cvc: string;
  expMonth: string;
  expYear: string;
  accessEvent: AccessRecord;
}

/**
 * `POST /cards/{cardId}/credentials`: refuses a card that is not active (400 `card_not_active`) and, when the
 * policy requires an intent, a card without a usable one (400 `intent_required`). Records the access event, which
 * opens the attestation window, and emits `credential.accessed`.
 */
export function retrieveCredentials(ctx: EngineContext, cardId: string, request: CredentialsRequest): Credentials {
  expireCardIfDue(ctx, cardId);
  const { card, policy } = loadCardScope(ctx, cardId);
  if (card.status !== 'active') {
    throw new ApiError(400, 'card_not_active', `The card is ${card.status}; credentials are only available for an active card.`, {
      cardId,
      status: card.status,
    });
  }
  const now = ctx.tenant.now();
  const state = engineState(ctx.tenant);
  const open = state.openIntents(cardId);
  let intent: IntentRecord | undefined;
  if (request.intentId !== undefined) {
    intent = open.get(request.intentId);
    if (!intent || !isUsable(intent, now)) {
      throw new ApiError(400, 'intent_required', 'The intent is not a usable (pending, unexpired) intent of this card.', {
        intentId: request.intentId,
      });
    }
  } else {
    // Open intents only (consumed, rejected and expired ones leave the map), so this does not grow with history.
    const usable = [...open.values()].filter((candidate) => isUsable(candidate, now));
    intent = usable[usable.length - 1];
  }
  if (policy.requireIntent && !intent) {
    throw new ApiError(400, 'intent_required', 'The card requires an approved or pending intent before its credentials are retrieved.', {
      cardId,
    });
  }
  const windowMinutes = policy.attestationWindowMinutes ?? DEFAULT_ATTESTATION_WINDOW_MINUTES;
  const access: AccessRecord = {
    id: ctx.tenant.ids.next('accessEvent'),
    cardId,
    agentId: card.agentId,
    intentId: intent?.id ?? null,
    summary: request.summary ?? intent?.summary ?? null,
    expectedAmount: request.expectedAmount ?? intent?.expectedAmount ?? null,
    exposureMode: request.exposureMode ?? 'rawPan',
    at: now,
    expiresAt: now + windowMinutes * 60_000,
  };
  accessEvents.of(ctx.tenant).insert(access);
  state.lastAccess.set(cardId, access);
  ctx.tenant.emit('credential.accessed', {
    accessEventId: access.id,
    cardId,
    agentId: card.agentId,
    exposureMode: access.exposureMode,
    summary: access.summary,
    expectedAmount: access.expectedAmount,
  });
  return { cardId, pan: card.pan, cvc: card.cvc, expMonth: card.expMonth, expYear: card.expYear, accessEvent: access };
}
