import { money } from '../../next-step.js';
import type { CardrailToolkit } from '../../toolkit.js';
import { callToolResult } from '../tool-result.js';

/**
 * The reason an intent is rejected with when the client cancels its task (`tasks/cancel`): the only way to withdraw
 * an intent through the API, and how a task reads as `cancelled` afterwards, on any process, since nothing else is
 * stored.
 */
export const CANCEL_REASON = "Cancelled by the agent's MCP client (tasks/cancel).";

/** How often a client should ask for a task while it waits for a person (the extension's `pollIntervalMs`). */
const POLL_INTERVAL_MS = 5_000;

/** The fields of an intent a task is made of. */
export interface TaskIntent {
  id: string;
  status: string;
  summary: string;
  expectedAmount: number;
  currency: string;
  expectedMerchant: string | null;
  approvalUrl?: string | null | undefined;
  createdAt: string;
  approvedAt: string | null;
  rejectedAt: string | null;
  rejectionReason: string | null;
  expiresAt: string;
}

/** A task as `tasks/get` answers it and `notifications/tasks` carries it (the extension's `DetailedTask`). */
export interface DetailedTask {
  taskId: string;
  status: 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';
  statusMessage?: string;
  createdAt: string;
  lastUpdatedAt: string;
  /** `null`: the task lasts as long as its intent, which the API keeps. */
  ttlMs: number | null;
  pollIntervalMs?: number;
  result?: Record<string, unknown>;
}

function purchase(intent: TaskIntent): string {
  const at = intent.expectedMerchant ? ` at ${intent.expectedMerchant}` : '';
  return `${intent.summary} (${money(intent.expectedAmount, intent.currency)}${at})`;
}

/** When the intent last changed, as far as its fields tell. */
function lastChange(intent: TaskIntent): string {
  if (intent.status === 'expired') return intent.expiresAt;
  return intent.rejectedAt ?? intent.approvedAt ?? intent.createdAt;
}

/** The status message of a task whose intent is decided, in a sentence. */
function decidedMessage(intent: TaskIntent): string {
  switch (intent.status) {
    case 'rejected':
      return `A person rejected intent ${intent.id}${intent.rejectionReason ? `: ${intent.rejectionReason}` : ''}.`;
    case 'expired':
      return `Intent ${intent.id} expired before anyone decided.`;
    default:
      return `Intent ${intent.id} is approved (${intent.status}).`;
  }
}

/**
 * The task that follows an intent a tool call left waiting for a person. The tasks extension keeps `failed` for a
 * JSON-RPC error and says a tool result, even `isError`, is `completed` ("Task Execution Errors"): the person's
 * decision, whichever it is, is the tool's result. So a task is
 * - `working` while the intent is `pending_approval` (the message names the approval page),
 * - `completed` once it is decided: approved, rejected or expired, `result` being the tool's answer then (the intent
 *   and the model's next step: pay, do not pay, declare a new one),
 * - `cancelled` once the client cancelled it (the intent rejected with `CANCEL_REASON`).
 */
export function taskOf(taskId: string, tool: string, intent: TaskIntent, toolkit: CardrailToolkit): DetailedTask {
  const base = { taskId, createdAt: intent.createdAt, lastUpdatedAt: lastChange(intent), ttlMs: null };
  if (intent.status === 'pending_approval') {
    const where = intent.approvalUrl ? `: ${intent.approvalUrl}` : '';
    return {
      ...base,
      status: 'working',
      statusMessage: `Waiting for a person to approve or reject intent ${intent.id} for ${purchase(intent)}${where}`,
      pollIntervalMs: POLL_INTERVAL_MS,
    };
  }
  if (intent.status === 'rejected' && intent.rejectionReason === CANCEL_REASON) {
    return { ...base, status: 'cancelled', statusMessage: `Cancelled: intent ${intent.id} was withdrawn (rejected).` };
  }
  const step = toolkit.nextStep(tool as Parameters<CardrailToolkit['nextStep']>[0], intent);
  const answer = callToolResult(step === undefined ? { ok: true, data: intent } : { ok: true, data: intent, nextStep: step });
  return { ...base, status: 'completed', statusMessage: decidedMessage(intent), result: { ...answer, resultType: 'complete' } };
}
