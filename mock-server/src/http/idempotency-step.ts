import { requestFingerprint, type StoredResponse } from '../core/idempotency.js';
import { HttpError, invalidRequest } from '../core/errors.js';
import type { AdmittedRequest } from './request-context.js';

/** What the idempotency check decided: answer with a replay, or run and then `complete` with the answer. */
type IdempotencyOutcome =
  | { kind: 'replay'; response: StoredResponse }
  | { kind: 'run'; complete(response: StoredResponse | undefined): void };

/**
 * `Idempotency-Key` on POST and PATCH (docs/idempotency.md): the same key and request replays the first answer
 * (marked `Idempotent-Replayed: true`), the same key with another request is 400 `idempotency_key_reused`, and a
 * concurrent duplicate waits for the first answer instead of running. Otherwise `run` runs, and its answer is
 * remembered under the key when it is worth replaying.
 */
export async function runOnce(
  context: AdmittedRequest,
  idempotencyKey: string,
  run: () => StoredResponse | Promise<StoredResponse>,
): Promise<StoredResponse> {
  const idempotency = await checkIdempotency(context, idempotencyKey);
  if (idempotency.kind === 'replay') {
    context.headers.push(['Idempotent-Replayed', 'true']);
    return idempotency.response;
  }
  let answer: StoredResponse;
  try {
    answer = await run();
  } catch (error) {
    idempotency.complete(undefined);
    throw error;
  }
  idempotency.complete(isReplayable(answer) ? answer : undefined);
  return answer;
}

/**
 * Looks the key up in the organization's keys. A request is "the same" when its variant, method, path and JSON body
 * value are: the same key on another path is another request.
 */
async function checkIdempotency(context: AdmittedRequest, idempotencyKey: string): Promise<IdempotencyOutcome> {
  if (idempotencyKey.length < 1 || idempotencyKey.length > 255) {
    throw invalidRequest('/header/Idempotency-Key', 'must be 1 to 255 characters');
  }
  const { identity, operation, target, body } = context;
  const fingerprint = await requestFingerprint(
    operation.spec.method,
    `${identity.variant} ${target.path}`,
    body === undefined ? null : body,
  );
  for (;;) {
    const lookup = identity.tenant.idempotency.begin(idempotencyKey, fingerprint);
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
function isReplayable(response: StoredResponse): boolean {
  return response.status < 500 && response.status !== 429;
}
