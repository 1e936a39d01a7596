import type { EpochMs } from './types.js';

/** Minutes credentials stay valid when the policy sets no `attestationWindowMinutes`. */
export const DEFAULT_ATTESTATION_WINDOW_MINUTES = 15;

/** A retrieval of card credentials (an access event, `acc_`): it opens the attestation window. */
export interface AccessRecord {
  id: string;
  cardId: string;
  agentId: string | null;
  intentId: string | null;
  summary: string | null;
  expectedAmount: number | null;
  exposureMode: 'rawPan';
  at: EpochMs;
  expiresAt: EpochMs;
}

/** A spend is attested when the card's latest credential access is still inside its window. */
export function isAttested(lastAccess: AccessRecord | null, now: EpochMs): boolean {
  return lastAccess !== null && now >= lastAccess.at && now <= lastAccess.expiresAt;
}
