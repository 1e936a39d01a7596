import { inputRequired, inputResponse } from '@modelcontextprotocol/server';
import { callToolResult } from '../tool-result.js';
import { type ApprovalCall, type ApprovalState, showsUrls, type ToolCallAnswer, type WaitingIntent } from './approval-call.js';
import { approvalMessage, notOpenedNote } from './approval-message.js';
import type { ApprovalPath } from './approval-path.js';
import { waitedAnswer } from './legacy-elicitation.js';

/** The key of the approval page's request in `inputRequests` and `inputResponses`. */
const APPROVAL_INPUT = 'approval';

/** A request for input asking the client to show the approval page, with the signed state of the retry. */
export async function askToShowPage(call: ApprovalCall, intent: WaitingIntent & { approvalUrl: string }, path: string) {
  return inputRequired({
    inputRequests: {
      [APPROVAL_INPUT]: inputRequired.elicitUrl({
        message: approvalMessage(call.toolkit.agentId, intent),
        url: intent.approvalUrl,
      }),
    },
    requestState: await call.seal({ intentId: intent.id }, path),
  });
}

/** The intent as it is now, answered as the tool that was called would answer it, with a note. */
async function intentAsItIs(call: ApprovalCall, intentId: string, note: string): Promise<ToolCallAnswer> {
  const read = await call.toolkit.call('get_intent', { intentId }, call.call);
  if (!read.ok) return callToolResult(read);
  const step = call.toolkit.nextStep(call.tool.name, read.data);
  return callToolResult(step === undefined ? { ok: true, data: read.data } : { ok: true, data: read.data, nextStep: step }, note);
}

/**
 * MCP 2026-07-28's URL elicitation: the call answers `input_required` with a URL-mode `elicitation/create` of the
 * approval page (no `elicitationId`: the intent travels in the signed `requestState`). The client shows the link and
 * retries the call with the person's answer: `accept` (they opened the page) waits for the decision, at most
 * `decisionWaitSeconds`, and answers the intent as the wait left it; `decline`, `cancel` or no answer answer the
 * intent as it is, with the link and the `wait_for_approval` step.
 */
export const urlElicitationPath: ApprovalPath = {
  name: 'url-elicitation',
  applies: (client, settings) => client.era === 'modern' && settings.elicitation && showsUrls(client),
  async begin(call, declared, intent) {
    if (!intent.approvalUrl) return callToolResult(declared);
    return askToShowPage(call, { ...intent, approvalUrl: intent.approvalUrl }, this.name);
  },
  async resume(call: ApprovalCall, state: ApprovalState) {
    const answer = inputResponse(call.ctx.mcpReq.inputResponses, APPROVAL_INPUT);
    if (answer.kind === 'elicit' && answer.action === 'accept') {
      return waitedAnswer(call, undefined, state.intentId);
    }
    const action = answer.kind === 'elicit' ? answer.action : 'no answer';
    return intentAsItIs(call, state.intentId, notOpenedNote(action));
  },
};
