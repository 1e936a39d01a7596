import { callToolResult } from '../tool-result.js';
import { type ApprovalCall, showsUrls, type ToolCallAnswer, type WaitingIntent } from './approval-call.js';
import { approvalMessage, notOpenedNote, SHOWN_NOTE } from './approval-message.js';
import type { ApprovalPath } from './approval-path.js';
import type { ToolResult } from '../../toolkit.js';

/**
 * MCP 2025-11-25's URL elicitation, as `cardrail-mcp` has always asked: an `elicitation/create` request in URL mode
 * sent to the client while the call is open (stdio, or any transport that keeps a connection), its own
 * `elicitationId`, and `notifications/elicitation/complete` once the person decided. A client that declines,
 * cancels, fails or never answers within `elicitationTimeoutMs`, and a decision that does not come within
 * `decisionWaitSeconds`, leave the intent as it is: the model gets its link and the `wait_for_approval` step.
 */
export const legacyElicitationPath: ApprovalPath = {
  name: 'legacy-elicitation',
  applies: (client, settings) => client.era === 'legacy' && settings.elicitation && showsUrls(client),
  async begin(call, declared, intent) {
    const { ctx, settings, toolkit } = call;
    if (!intent.approvalUrl) return callToolResult(declared);
    const elicitationId = crypto.randomUUID();
    let action: string;
    try {
      const answer = await ctx.mcpReq.send(
        {
          method: 'elicitation/create',
          params: { mode: 'url', elicitationId, url: intent.approvalUrl, message: approvalMessage(toolkit.agentId, intent) },
        },
        { timeout: settings.elicitationTimeoutMs, signal: ctx.mcpReq.signal },
      );
      action = answer.action;
    } catch (error) {
      if (ctx.mcpReq.signal.aborted) throw error;
      const why = error instanceof Error ? error.message : String(error);
      return callToolResult(declared, `The client could not show the approval page (${why}).`);
    }
    if (action !== 'accept') return callToolResult(declared, notOpenedNote(action));
    return waitedAnswer(call, declared, intent.id, () =>
      ctx.mcpReq.notify({ method: 'notifications/elicitation/complete', params: { elicitationId } }),
    );
  },
};

/**
 * Once the person opened the page: waits for their decision (at most `decisionWaitSeconds`), then answers the intent
 * as the wait left it; `onDecided` runs when a decision came.
 */
export async function waitedAnswer(
  call: ApprovalCall,
  declared: ToolResult | undefined,
  intentId: string,
  onDecided?: () => Promise<void>,
): Promise<ToolCallAnswer> {
  const decided = await call.toolkit.call(
    'wait_for_approval',
    { intentId, timeoutSeconds: call.settings.decisionWaitSeconds },
    call.call,
  );
  if (!decided.ok) {
    const why = `The person was shown the approval page; waiting for the decision failed (${decided.error.message}).`;
    return declared === undefined ? callToolResult(decided) : callToolResult(declared, why);
  }
  if ((decided.data as WaitingIntent).status !== 'pending_approval') await onDecided?.().catch(() => undefined);
  return callToolResult(decided, SHOWN_NOTE);
}
