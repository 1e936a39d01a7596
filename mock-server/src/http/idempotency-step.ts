import { requestFingerprint, type StoredResponse } from '../core/idempotency.js';
import type { Tenant } from '../core/tenant.js';
import { HttpError, invalidRequest } from '../core/errors.js';

/** What the idempotency check decided: answer with a replay, or run and then `complete` with the answer. */
export type IdempotencyOutcome =
  | { kind: 'replay'; response: StoredResponse }
  | { kind: 'run'; complete(response: StoredResponse | undefined): void };

const NOTHING_TO_REMEMBER: IdempotencyOutcome = { kind: 'run', complete: () => undefined };

/**
 * `Idempotency-Key` on POST and PATCH (docs/idempotency.md): the same key and request replays the first answer, the
 * same key with another request is 400 `idempotency_key_reused`. A request is "the same" when its variant,
 * method, path and JSON body value are. A concurrent duplicate waits for the first answer instead of running.
 */
export async function checkIdempotency(
  tenant: Tenant,
  idempotencyKey: string | null,
  request: { variant: string; method: string; path: string; body: unknown },
): Promise<IdempotencyOutcome> {
  if (idempotencyKey === null) return NOTHING_TO_REMEMBER;
  if (idempotencyKey.length < 1 || idempotencyKey.length > 255) {
    throw invalidRequest('/header/Idempotency-Key', 'must be 1 to 255 characters');
  }
  const fingerprint = requestFingerprint(
    request.method,
    `${request.variant} ${request.path}`,
    request.body === undefined ? null : request.body,
  );
  for (;;) {
    const lookup = tenant.idempotency.begin(idempotencyKey, fingerprint);
    if (lookup.kind === 'reused') {
      throw new HttpError(
        400,
        'idempotency_key_reused',
        'This Idempotency-Key was used with a different request within the last 24 hours.',
        { idempotencyKey },
      );
    }
    if (lookup.kind === 'new') return { kind: 'run', complete: lookup.complete };
    const first = await lookup.response;
    if (first) return { kind: 'replay', response: first };
    // The first request ended without a replayable answer (5xx, 429): the key is free again.
  }
}

/** Answers worth replaying: everything but server errors and rate limits, which a retry should redo. */
export function isReplayable(response: StoredResponse): boolean {
  return response.status < 500 && response.status !== 429;
}
