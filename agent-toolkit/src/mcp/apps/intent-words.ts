// The words a person reads about an intent that waits for them: the MCP App approval card and the dashboard's page of
// an intent both say the same facts with these functions, so that a person who sees both reads one account. Plain
// functions of plain data (no DOM, no imports): the card's bundle and the dashboard's bundle each take them in.

/** The fields of an intent the words speak of (the API's `Intent`, either variant). */
export interface IntentWordsIntent {
  status: string;
  expectedAmount: number;
  currency: string;
  tolerance: { percent?: number | undefined; amount?: number | undefined };
  expiresAt: string;
  approvedAt: string | null;
  approvedBy?: string | null | undefined;
  rejectedAt: string | null;
  rejectedBy?: string | null | undefined;
  rejectionReason: string | null;
  decidedBy?: IntentWordsDecider | null | undefined;
}

/** Who decided (the intent's `decidedBy`). */
interface IntentWordsDecider {
  name: string | null;
  via: string | null;
  apiKey: { name: string | null; redactedKey: string };
}

/** What the card and the owner may still spend: the card's policy limits and the owner's balance. */
export interface SpendableFacts {
  remainingDay: number | null;
  remainingMonth: number | null;
  /** The owner's available balance; null when it could not be read. */
  available: number | null;
}

/** What Cardrail would decide if the payment came now (`POST /spend/evaluate`). */
export interface EvaluationFacts {
  decision: string;
  reasons: readonly { code: string; message: string }[];
}

/** The names of the facts, in the order both pages show them. */
export const FACT_LABELS = {
  amount: 'Amount',
  merchant: 'Merchant',
  agent: 'Agent',
  owner: 'Owner',
  card: 'Card',
  spendable: 'May still spend',
  ifPaidNow: 'If paid now',
  expires: 'Expires',
} as const;

/** `$25.00`: an amount in minor units as a person reads it. */
export function formatMoney(cents: number | null | undefined, currency = 'usd'): string {
  if (cents === null || cents === undefined) return '—';
  try {
    return new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase() }).format(cents / 100);
  } catch {
    return `${(cents / 100).toFixed(2)} ${currency.toUpperCase()}`;
  }
}

const dateTime = new Intl.DateTimeFormat('en-GB', {
  year: 'numeric',
  month: 'short',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  timeZone: 'UTC',
  timeZoneName: 'short',
});

/** `28 Nov 2026, 12:00:00 UTC`: one clock for every reader, whatever their time zone. */
export function formatTime(time: string | number | null | undefined): string {
  if (time === null || time === undefined) return '—';
  const date = new Date(time);
  return Number.isNaN(date.getTime()) ? String(time) : dateTime.format(date);
}

/** The amounts a payment may have and still match the intent (docs/intents.md#matching). */
export function toleranceWords(intent: Pick<IntentWordsIntent, 'expectedAmount' | 'currency' | 'tolerance'>): string {
  const percent = intent.tolerance.percent ?? 10;
  const amount = intent.tolerance.amount ?? 500;
  const slack = Math.max(Math.floor((intent.expectedAmount * percent) / 100), amount);
  const low = Math.max(intent.expectedAmount - slack, 0);
  const money = (cents: number) => formatMoney(cents, intent.currency);
  return `A payment from ${money(low)} to ${money(intent.expectedAmount + slack)} matches it (the larger of ${percent} % and ${money(amount)}).`;
}

/** `$487.50 today, no monthly limit; balance $500.00`: the card's limits, then what the owner has. */
export function spendableWords(facts: SpendableFacts, currency: string): string {
  const day = facts.remainingDay === null ? 'no daily limit' : `${formatMoney(facts.remainingDay, currency)} today`;
  const month = facts.remainingMonth === null ? 'no monthly limit' : `${formatMoney(facts.remainingMonth, currency)} this month`;
  const balance = facts.available === null ? 'balance unknown' : `balance ${formatMoney(facts.available, currency)}`;
  return `${day}, ${month}; ${balance}`;
}

const VERDICTS: Record<string, string> = {
  approve: 'would be approved',
  decline: 'would be declined',
  review: "needs a person's approval",
};

/** What Cardrail would decide, in words, and why (each reason in the API's own words). */
export function evaluationWords(evaluation: EvaluationFacts): { verdict: string; reasons: string[] } {
  return {
    verdict: VERDICTS[evaluation.decision] ?? evaluation.decision,
    reasons: evaluation.reasons.map((reason) => reason.message),
  };
}

/** The intent's status as a person reads it: an approved intent is `approved`, not `pending`. */
export function statusWords(intent: Pick<IntentWordsIntent, 'status' | 'approvedAt'>): string {
  const status = intent.status === 'pending' && intent.approvedAt ? 'approved' : intent.status;
  return status.replace(/_/g, ' ');
}

/**
 * Who decided: the person and the place the decision named (`by Ada Lovelace via the dashboard`, `by a person via the
 * approval card in Claude`), or the key of a call that named nobody; how the decision reached Cardrail for an intent
 * decided before decisions named anyone.
 */
export function deciderWords(intent: Pick<IntentWordsIntent, 'decidedBy' | 'approvedBy' | 'rejectedBy'>): string {
  const decider = intent.decidedBy;
  if (!decider) {
    const actor = intent.approvedBy ?? intent.rejectedBy;
    return actor === 'system' ? "by Cardrail's rules" : actor === 'dashboard' ? 'on the dashboard' : 'through the API';
  }
  if (decider.name === null && decider.via === null) {
    const key = decider.apiKey.name ? `“${decider.apiKey.name}” (${decider.apiKey.redactedKey})` : decider.apiKey.redactedKey;
    return `through the API with key ${key}`;
  }
  return `by ${decider.name ?? 'a person'}${decider.via === null ? '' : ` via ${decider.via}`}`;
}

/**
 * What became of an intent that no longer waits, in a sentence (`Approved 28 Nov 2026, 12:00:00 UTC by Ada Lovelace
 * via the dashboard. The agent may now pay.`); undefined while it waits.
 */
export function outcomeWords(intent: IntentWordsIntent): string | undefined {
  if (intent.status === 'pending_approval') return undefined;
  if (intent.approvedAt) {
    const then = intent.status === 'pending' ? 'The agent may now pay.' : `It is now ${statusWords(intent)}.`;
    return `Approved ${formatTime(intent.approvedAt)} ${deciderWords(intent)}. ${then}`;
  }
  if (intent.status === 'rejected') {
    const why = intent.rejectionReason ? `: ${intent.rejectionReason}` : '.';
    return `Rejected ${formatTime(intent.rejectedAt)} ${deciderWords(intent)}${why}`;
  }
  if (intent.status === 'expired') return `Expired ${formatTime(intent.expiresAt)}: there is nothing left to decide.`;
  if (intent.status === 'pending') return 'This purchase needed no person’s approval: the agent may pay.';
  return `This intent is ${statusWords(intent)}: there is nothing left to decide.`;
}

/** Why a reason cannot be sent, naming the maximum the API takes; undefined when it can. */
export function reasonTooLong(reason: string, maxLength: number): string | undefined {
  if (reason.length <= maxLength) return undefined;
  return `The reason is ${reason.length} characters long; the API takes at most ${maxLength}.`;
}
