import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  type ClientCapabilities,
  ElicitResultSchema,
  type ServerNotification,
  type ServerRequest,
} from '@modelcontextprotocol/sdk/types.js';
import { type IntentFacts, money } from '../next-step.js';
import type { CardrailToolkit, ToolResult } from '../toolkit.js';
import type { ToolCallOptions } from '../tools/tool-handler.js';

/** How `declare_intent` asks a client that can show a URL (MCP's URL-mode elicitation) for a person's decision. */
export interface ApprovalElicitationOptions {
  /**
   * `false` never asks: the model gets the approval link and waits with `wait_for_approval`, as with a client that
   * cannot show a URL. Default `true`.
   */
  elicitation?: boolean | undefined;
  /**
   * How long the client has to answer the elicitation (show the link, and say whether the person opens it), in
   * milliseconds. A client that never answers costs no more than this; the model then gets the link. Default 60 000.
   */
  elicitationTimeoutMs?: number | undefined;
  /**
   * Once the person opened the page, how long `declare_intent` waits for their decision, in seconds, before it
   * answers the intent as it is (the model then waits with `wait_for_approval`). Default 120, at most 300.
   */
  decisionWaitSeconds?: number | undefined;
}

/** The options with their defaults, checked once when the server is created. */
export interface ApprovalElicitationSettings {
  elicitation: boolean;
  elicitationTimeoutMs: number;
  decisionWaitSeconds: number;
}

const MAX_DECISION_WAIT_SECONDS = 300;

export function approvalSettings(options: ApprovalElicitationOptions = {}): ApprovalElicitationSettings {
  const settings = {
    elicitation: options.elicitation ?? true,
    elicitationTimeoutMs: options.elicitationTimeoutMs ?? 60_000,
    decisionWaitSeconds: options.decisionWaitSeconds ?? 120,
  };
  if (!Number.isSafeInteger(settings.elicitationTimeoutMs) || settings.elicitationTimeoutMs < 1) {
    throw new TypeError(
      `approval.elicitationTimeoutMs must be a positive whole number of milliseconds, got ${String(options.elicitationTimeoutMs)}.`,
    );
  }
  const wait = settings.decisionWaitSeconds;
  if (!Number.isSafeInteger(wait) || wait < 1 || wait > MAX_DECISION_WAIT_SECONDS) {
    throw new TypeError(
      `approval.decisionWaitSeconds must be a whole number of seconds from 1 to ${MAX_DECISION_WAIT_SECONDS}, got ${String(options.decisionWaitSeconds)}.`,
    );
  }
  return settings;
}

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

type PendingIntent = Pick<
  IntentFacts,
  'id' | 'status' | 'summary' | 'expectedAmount' | 'currency' | 'expectedMerchant' | 'approvalUrl'
>;

function pendingWithLink(data: unknown): (PendingIntent & { approvalUrl: string }) | undefined {
  const intent = data as PendingIntent | undefined;
  return intent?.status === 'pending_approval' && typeof intent.approvalUrl === 'string'
    ? (intent as PendingIntent & { approvalUrl: string })
    : undefined;
}

function requestMessage(agentId: string, intent: PendingIntent): string {
  const amount = money(intent.expectedAmount, intent.currency);
  const merchant = intent.expectedMerchant ? ` at ${intent.expectedMerchant}` : '';
  return `Agent ${agentId} wants to pay ${amount}${merchant} for "${intent.summary}" (intent ${intent.id}). Its card needs a person's approval: open the page to approve or reject it.`;
}

/**
 * After `declare_intent` answered an intent waiting for a person: when the client declared URL elicitation, asks it
 * to show the intent's approval page, and once the person opened it waits for their decision (bounded), then tells
 * the client the interaction is complete. A client without the capability, one that declines or cancels, one that
 * fails or never answers within `elicitationTimeoutMs`, and a decision that does not come in time all leave the
 * intent as it is: the model gets its link and the `wait_for_approval` step. The answer says which happened.
 */
export async function askForApproval(
  toolkit: CardrailToolkit,
  declared: ToolResult,
  capabilities: ClientCapabilities | undefined,
  settings: ApprovalElicitationSettings,
  extra: Extra,
  call: ToolCallOptions,
): Promise<{ result: ToolResult; note?: string }> {
  const intent = declared.ok ? pendingWithLink(declared.data) : undefined;
  if (intent === undefined || !settings.elicitation || !capabilities?.elicitation?.url) return { result: declared };
  const elicitationId = crypto.randomUUID();
  let action: string;
  try {
    const answer = await extra.sendRequest(
      {
        method: 'elicitation/create',
        params: { mode: 'url', elicitationId, url: intent.approvalUrl, message: requestMessage(toolkit.agentId, intent) },
      },
      ElicitResultSchema,
      { timeout: settings.elicitationTimeoutMs, signal: extra.signal },
    );
    action = answer.action;
  } catch (error) {
    if (extra.signal.aborted) throw error;
    const why = error instanceof Error ? error.message : String(error);
    return { result: declared, note: `The client could not show the approval page (${why}).` };
  }
  if (action !== 'accept') {
    return { result: declared, note: `The person did not open the approval page in the client (${action}).` };
  }
  const decided = await toolkit.call(
    'wait_for_approval',
    { intentId: intent.id, timeoutSeconds: settings.decisionWaitSeconds },
    call,
  );
  if (!decided.ok) {
    return {
      result: declared,
      note: `The person was shown the approval page; waiting for the decision failed (${decided.error.message}).`,
    };
  }
  if ((decided.data as PendingIntent).status !== 'pending_approval') {
    await extra
      .sendNotification({ method: 'notifications/elicitation/complete', params: { elicitationId } })
      .catch(() => undefined);
  }
  return { result: decided, note: 'The person was shown the approval page in the client.' };
}
