import type { Intent } from '@cardrail/sdk';
import { ToolError } from '../../tool-error.js';
import type { CapabilityRefusal } from './decision-capability.js';
import { deciderWords, statusWords } from './intent-words.js';

const WHY: Record<CapabilityRefusal, string> = {
  missing: 'it carries no decision capability',
  malformed: 'its decision capability is not one',
  forged: 'its decision capability was not given by this server for this agent',
  other_intent: 'its decision capability was given for another intent',
  expired: 'its decision capability expired with its intent',
};

/**
 * A call of the approval card's tools without the capability its view holds: what a model (or anyone but the card)
 * gets when it tries to decide or read through them. Nothing was read or decided.
 */
export function capabilityRefused(tool: string, intentId: string, refusal: CapabilityRefusal): ToolError {
  return new ToolError({
    code: 'capability_required',
    message:
      `${tool} is the approval card's, where a person decides: this call is refused because ${WHY[refusal]}. ` +
      `Nothing was read or decided on intent ${intentId}. Give the person the approval card or the intent's approvalUrl, ` +
      'and wait for their decision with wait_for_approval.',
    details: { intentId, reason: refusal },
  });
}

/** A decision on an intent that no longer waits (decided elsewhere, a replay, or expired): nothing changes. */
export function alreadyDecided(intent: Intent): ToolError {
  const by = intent.decidedBy ? ` ${deciderWords(intent)}` : '';
  return new ToolError({
    code: 'invalid_state',
    message: `Intent ${intent.id} is already ${statusWords(intent)}${by}: nothing was changed.`,
    details: { intentId: intent.id, status: intent.status },
  });
}

/** An intent the toolkit does not act for (another agent's, or another card's when bound). */
export function notThisAgents(intentId: string, agentId: string): ToolError {
  return new ToolError({
    code: 'out_of_scope',
    message: `Intent ${intentId} is not an intent of agent ${agentId}: nothing was read or decided.`,
    details: { intentId },
  });
}

/** A reason given with an approval, which only a rejection carries. */
export function reasonWithApproval(): ToolError {
  return new ToolError({
    code: 'invalid_input',
    message: 'approval_card_decide: reason goes with a rejection only. Nothing was sent.',
    details: { field: 'reason', reason: 'goes with a rejection only' },
  });
}
