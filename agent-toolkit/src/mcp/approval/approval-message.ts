import { money } from '../../next-step.js';
import type { WaitingIntent } from './approval-call.js';

/** What the client shows the person beside the approval page's link. */
export function approvalMessage(agentId: string, intent: WaitingIntent): string {
  const amount = money(intent.expectedAmount, intent.currency);
  const merchant = intent.expectedMerchant ? ` at ${intent.expectedMerchant}` : '';
  return `Agent ${agentId} wants to pay ${amount}${merchant} for "${intent.summary}" (intent ${intent.id}). Its card needs a person's approval: open the page to approve or reject it.`;
}

export const SHOWN_NOTE = 'The person was shown the approval page in the client.';
export const notOpenedNote = (action: string) => `The person did not open the approval page in the client (${action}).`;
