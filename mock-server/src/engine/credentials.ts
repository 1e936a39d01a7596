import { HttpError } from '../core/errors.js';
import { DEFAULT_ATTESTATION_WINDOW_MINUTES, type AccessRecord } from './attestation.js';
import { loadCardScope } from './card-scope.js';
import type { Tenant } from '../core/tenant.js';
import { engineState } from './engine-state.js';
import { isAwaitingApproval, isUsable, type IntentRecord } from './intents/intent-record.js';
import { accessEvents } from './records.js';
import { expireCardIfDue } from './ttl.js';
import type { EpochMs } from './types.js';

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
 * merged policy requires an intent or approval, a card without a usable intent: 400 `approval_required` while its
 * intent still awaits approval, 400 `intent_required` otherwise. Records the access event, which opens the
 * attestation window, and emits `credential.accessed`.
 */
export function retrieveCredentials(tenant: Tenant, cardId: string, request: CredentialsRequest): Credentials {
  const scope = loadCardScope(tenant, cardId);
  expireCardIfDue(tenant, scope);
  const { card, policy } = scope;
  if (card.status !== 'active') {
    throw new HttpError(
      400,
      'card_not_active',
      `The card is ${card.status}; credentials are only available for an active card.`,
      {
        cardId,
        status: card.status,
      },
    );
  }
  const now = tenant.now();
  const state = engineState(tenant);
  const lookup = findIntent(state.openIntents(cardId), cardId, request.intentId, now);
  // requireApproval gates credentials too (docs/intents.md#credentials-gated-by-intents): approval means nothing if the card opens without it.
  if ((policy.requireIntent === true || policy.requireApproval === true) && !lookup.usable) {
    throw lookup.awaitingApproval
      ? approvalRequired(cardId, lookup.awaitingApproval)
      : new HttpError(
          400,
          'intent_required',
          'The card requires an approved or pending intent before its credentials are retrieved.',
          {
            cardId,
          },
        );
  }
  const intent = lookup.usable;
  const windowMinutes = policy.attestationWindowMinutes ?? DEFAULT_ATTESTATION_WINDOW_MINUTES;
  const access: AccessRecord = {
    id: tenant.ids.next('accessEvent'),
    cardId,
    agentId: card.agentId,
    intentId: intent?.id ?? null,
    summary: request.summary ?? intent?.summary ?? null,
    expectedAmount: request.expectedAmount ?? intent?.expectedAmount ?? null,
    exposureMode: request.exposureMode ?? 'rawPan',
    at: now,
    expiresAt: now + windowMinutes * 60_000,
  };
  accessEvents.of(tenant).insert(access);
  state.lastAccess.set(cardId, access);
  tenant.emit('credential.accessed', {
    accessEventId: access.id,
    cardId,
    agentId: card.agentId,
    exposureMode: access.exposureMode,
    summary: access.summary,
    expectedAmount: access.expectedAmount,
  });
  return { cardId, pan: card.pan, cvc: card.cvc, expMonth: card.expMonth, expYear: card.expYear, accessEvent: access };
}

interface IntentLookup {
  /** The intent credentials are retrieved for: the one named, else the newest usable one. */
  usable?: IntentRecord | undefined;
  /** An unexpired intent still `pending_approval` (the one named, else the newest), when none is usable. */
  awaitingApproval?: IntentRecord | undefined;
}

/**
 * The card's intent for a credential retrieval, from its open intents only (consumed, rejected and expired ones
 * leave the map, so this does not grow with history). A named intent must be one of them and usable: one awaiting
 * approval is 400 `approval_required`, anything else 400 `intent_required`, whatever the policy.
 */
function findIntent(
  open: ReadonlyMap<string, IntentRecord>,
  cardId: string,
  intentId: string | undefined,
  now: EpochMs,
): IntentLookup {
  if (intentId !== undefined) {
    const named = open.get(intentId);
    if (named && isUsable(named, now)) return { usable: named };
    if (named && isAwaitingApproval(named, now)) throw approvalRequired(cardId, named);
    throw new HttpError(400, 'intent_required', 'The intent is not a usable (pending, unexpired) intent of this card.', {
      intentId,
    });
  }
  const candidates = [...open.values()];
  const newest = (match: (intent: IntentRecord) => boolean) => candidates.filter(match).at(-1);
  const usable = newest((candidate) => isUsable(candidate, now));
  return usable ? { usable } : { awaitingApproval: newest((candidate) => isAwaitingApproval(candidate, now)) };
}

function approvalRequired(cardId: string, intent: IntentRecord): HttpError {
  return new HttpError(
    400,
    'approval_required',
    "The card's intent awaits approval; approve it before retrieving the credentials.",
    {
      cardId,
      intentId: intent.id,
    },
  );
}
