import type { ToolName } from './generated/tool-schemas.js';

/** The fields of an intent that a sentence about it speaks of (the next step, an approval request). */
export interface IntentFacts {
  id: string;
  status: string;
  summary: string;
  expectedAmount: number;
  currency: string;
  expectedMerchant: string | null;
  expiresAt: string;
  rejectionReason: string | null;
  approvedAt: string | null;
  approvalUrl?: string | null;
}

function isIntent(data: unknown): data is IntentFacts {
  return (
    data !== null &&
    typeof data === 'object' &&
    typeof (data as { id?: unknown }).id === 'string' &&
    (data as { id: string }).id.startsWith('int_') &&
    typeof (data as { status?: unknown }).status === 'string'
  );
}

/** `25.00 USD`: an amount in minor units as a model reads it (two decimals, as for the currencies the API takes). */
export function money(cents: number, currency: string): string {
  return `${(cents / 100).toFixed(2)} ${currency.toUpperCase()}`;
}

function purchase(intent: IntentFacts): string {
  const at = intent.expectedMerchant ? ` at ${intent.expectedMerchant}` : '';
  return `${intent.summary} (${money(intent.expectedAmount, intent.currency)}${at})`;
}

function waitingForPerson(intent: IntentFacts, again: boolean): string {
  const ask = intent.approvalUrl
    ? `Give the person who decides this link, where they approve or reject it: ${intent.approvalUrl}`
    : 'Ask the person in charge of this agent to approve or reject it';
  const first = again
    ? `Nobody has decided on intent ${intent.id} for ${purchase(intent)} yet.`
    : `A person must approve intent ${intent.id} for ${purchase(intent)} before you pay.`;
  return `${first} ${ask}. Then call wait_for_approval with intentId ${intent.id}${again ? ' again' : ''}. Do not retrieve the card credentials or pay until it is approved.`;
}

/**
 * What the model should do after a tool answered, in a sentence, where the answer alone leaves it to guess: an
 * intent waiting for a person, approved, rejected or expired. Undefined when the answer speaks for itself.
 */
export function nextStep(tool: ToolName, data: unknown): string | undefined {
  if (!isIntent(data) || !['declare_intent', 'get_intent', 'wait_for_approval'].includes(tool)) return undefined;
  switch (data.status) {
    case 'pending_approval':
      return waitingForPerson(data, tool === 'wait_for_approval');
    case 'pending':
      return `Intent ${data.id} ${data.approvedAt ? 'is approved' : 'needs no approval'}: you may call get_card_credentials with intentId ${data.id} and pay for ${purchase(data)} before ${data.expiresAt}.`;
    case 'rejected':
      return `A person rejected intent ${data.id} for ${purchase(data)}${data.rejectionReason ? `: ${data.rejectionReason}` : ''}. Do not pay; tell the user.`;
    case 'expired':
      return `Intent ${data.id} expired before it was used. Declare a new one if the purchase is still needed.`;
    default:
      return undefined;
  }
}
