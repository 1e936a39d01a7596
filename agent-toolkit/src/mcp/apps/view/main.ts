// The approval card (an MCP App view): shows the intent a tool left waiting for a person, with what they need to
// decide, lets them approve or reject it, and follows a decision made elsewhere. Everything it reads and sends goes
// through the host to the MCP server's card tools, with the decision capability the server gave this card only.
import type { Intent } from '@cardrail/sdk';
import type { ApprovalCardFacts } from '../card-facts.js';
import { APPROVAL_CARD_META, type ApprovalCardMeta, DECIDE_TOOL, FOLLOW_SECONDS, READ_TOOL } from '../card-protocol.js';
import { outcomeWords, reasonTooLong } from '../intent-words.js';
import { type CardState, mountCard } from './card-view.js';
import { HostConnection, type ToolResult } from './host-connection.js';
import { applyHostContext } from './theme.js';

const state: CardState = {
  intent: undefined,
  facts: undefined,
  canDecide: false,
  busy: undefined,
  error: undefined,
  failure: undefined,
};
let card: ApprovalCardMeta | undefined;
let stopped = false;
let following = false;

/** The JSON error a failed tool call carries in its text (`{"error":{"code","message"}}`). */
function failureOf(result: ToolResult): string {
  const text = result.content?.find((block) => block.type === 'text')?.text ?? '';
  try {
    const { error } = JSON.parse(text) as { error?: { message?: string } };
    return error?.message ?? text;
  } catch {
    return text || 'The tool failed.';
  }
}

const update = mountCard(document.body, {
  approve: () => void decide('approve', ''),
  reject: (reason) => void decide('reject', reason),
  openPage: (url) => void host.request('ui/open-link', { url }).catch(() => undefined),
});

const host = new HostConnection(window.parent, {
  toolInput: () => undefined,
  toolResult: (result) => void shown(result),
  toolCancelled: (reason) => {
    state.failure = `The call was cancelled${reason ? ` (${reason})` : ''}: nothing was declared.`;
    update(state);
  },
  contextChanged: (context) => applyHostContext(context),
  teardown: () => {
    stopped = true;
  },
});

/** Reads what the card shows, waiting up to `waitSeconds` for a decision made elsewhere. */
async function read(waitSeconds: number): Promise<void> {
  if (card === undefined) return;
  const result = await host.callTool(READ_TOOL, { intentId: card.intentId, capability: card.capability, waitSeconds });
  if (result.isError) throw new Error(failureOf(result));
  const facts = result.structuredContent as unknown as ApprovalCardFacts;
  state.facts = facts;
  state.intent = facts.intent;
  update(state);
}

/** While the intent waits, reads it again and again, each read waiting for a decision made elsewhere. */
async function follow(): Promise<void> {
  if (following) return;
  following = true;
  try {
    while (!stopped && state.intent?.status === 'pending_approval') {
      try {
        await read(FOLLOW_SECONDS);
      } catch (error) {
        state.error = `The card could not check the intent: ${(error as Error).message}`;
        update(state);
        return;
      }
    }
  } finally {
    following = false;
  }
}

async function shown(result: ToolResult): Promise<void> {
  if (result.isError) {
    state.failure = failureOf(result);
    update(state);
    return;
  }
  state.intent = result.structuredContent as unknown as Intent;
  const meta = result._meta?.[APPROVAL_CARD_META] as ApprovalCardMeta | undefined;
  card = meta && typeof meta.capability === 'string' && meta.intentId === state.intent.id ? meta : undefined;
  state.canDecide = card !== undefined;
  update(state);
  if (card === undefined) return;
  try {
    await read(0);
  } catch (error) {
    state.error = `The card could not read the purchase: ${(error as Error).message}`;
    update(state);
    return;
  }
  void follow();
}

async function decide(decision: 'approve' | 'reject', reason: string): Promise<void> {
  if (card === undefined || state.busy !== undefined) return;
  const tooLong = state.facts ? reasonTooLong(reason, state.facts.reasonMaxLength) : undefined;
  if (tooLong !== undefined) {
    state.error = tooLong;
    update(state);
    return;
  }
  state.busy = decision;
  state.error = undefined;
  update(state);
  try {
    const args = { intentId: card.intentId, decision, capability: card.capability, ...(reason ? { reason } : {}) };
    const result = await host.callTool(DECIDE_TOOL, args);
    if (result.isError) state.error = failureOf(result);
    else state.intent = result.structuredContent as unknown as Intent;
  } catch (error) {
    state.error = (error as Error).message;
  }
  state.busy = undefined;
  update(state);
  await read(0).catch(() => undefined);
  const words = state.intent ? outcomeWords(state.intent) : undefined;
  if (words !== undefined && state.intent) void host.updateModelContext(`Intent ${state.intent.id}: ${words}`);
}

update(state);
await host.initialize({ name: 'Cardrail approval card', version: '1' });
applyHostContext(host.context);
host.reportSize();
