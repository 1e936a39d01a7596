import { normalizeName } from '../policy/merge-policies.js';
import type { IntentRecord } from './intent-record.js';

export interface IntentMatch {
  intent: IntentRecord;
  amountMatch: boolean;
  merchantMatch: boolean;
  matched: boolean;
}

/** The largest difference from `expectedAmount` that still matches: percent of it or the fixed amount, the larger. */
export function allowedDifference(intent: IntentRecord): number {
  return Math.max((intent.expectedAmount * intent.tolerance.percent) / 100, intent.tolerance.amount);
}

/** How an authorization compares with one intent. An intent without `expectedMerchant` matches any merchant. */
function compareWithIntent(intent: IntentRecord, amount: number, merchantName: string | undefined): IntentMatch {
  const amountMatch = Math.abs(amount - intent.expectedAmount) <= allowedDifference(intent);
  const merchantMatch =
    intent.expectedMerchant === null ||
    merchantName === undefined ||
    normalizeName(intent.expectedMerchant) === normalizeName(merchantName);
  return { intent, amountMatch, merchantMatch, matched: amountMatch && merchantMatch };
}

/**
 * Matches an authorization against the card's usable intents (oldest first): the first that matches wins;
 * when none does, the newest is the one the authorization mismatched. No usable intent: no match at all.
 */
export function matchIntents(
  usable: readonly IntentRecord[],
  amount: number,
  merchantName: string | undefined,
): IntentMatch | null {
  let last: IntentMatch | null = null;
  for (const intent of usable) {
    const result = compareWithIntent(intent, amount, merchantName);
    if (result.matched) return result;
    last = result;
  }
  return last;
}
