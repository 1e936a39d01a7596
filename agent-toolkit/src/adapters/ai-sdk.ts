/**
 * The toolkit as Vercel AI SDK tools (`toAISDKTools`), and a person's approval of a purchase through the AI SDK's
 * tool approval (`cardrailToolApproval` for `ai` 7, `needsApproval` for `ai` 6), written back to Cardrail
 * (`recordApprovalResponses`). `ai` 6 or 7 is a peer dependency.
 *
 * @module @cardrail/agent-toolkit/ai-sdk
 */
import { jsonSchema, type ModelMessage, type Tool, tool } from 'ai';
import { declareApproved, decideSpend, reviewSpend, type Intent } from '../approval/spend-review.js';
import { declinedCallsOf } from '../approval/declined-calls.js';
import type { ToolName } from '../generated/tool-schemas.js';
import { ToolError } from '../tool-error.js';
import type { CardrailToolkit } from '../toolkit.js';

/** Options of `toAISDKTools`. */
export interface AISDKToolsOptions {
  /**
   * For `ai` 6, whose approval is per tool: `declare_intent` asks for a person's approval when Cardrail says a person
   * must decide (the tool's `needsApproval`), and refuses a spend Cardrail would decline. With `ai` 7 pass
   * `toolApproval: cardrailToolApproval(toolkit)` to `generateText`/`streamText` instead. Default `false`.
   */
  needsApproval?: boolean | undefined;
}

/** The call needs nobody's approval: it runs. */
export interface NotApplicableStatus {
  /** `not-applicable`. */
  type: 'not-applicable';
}

/** Cardrail would decline the spend: the call does not run, and the model is told why. */
export interface DeniedStatus {
  /** `denied`. */
  type: 'denied';
  /** Why, from the evaluation's reasons (`Cardrail would decline this spend: The card is frozen. (card_frozen)`). */
  reason: string;
}

/** A person must decide: the run pauses with an approval request carrying the reason. */
export interface UserApprovalStatus {
  /** `user-approval`. */
  type: 'user-approval';
  /** What the person decides on: the purchase, the intent, and its approval page when there is one. */
  reason: string;
}

/** What `cardrailToolApproval` answers for a call: the AI SDK 7 approval status, with its reason. */
export type CardrailApprovalStatus = NotApplicableStatus | DeniedStatus | UserApprovalStatus;

/** AI SDK 7's `toolApproval` for the toolkit's tools: a status for each `declare_intent` call. */
export interface CardrailToolApproval {
  /** Judges a `declare_intent` call before it runs (see `cardrailToolApproval`). */
  declare_intent: (input: unknown, options: { toolCallId: string }) => Promise<CardrailApprovalStatus>;
}

/** The part of a tool call's options the adapters read (both `ai` 6 and 7 pass them). */
interface CallOptions {
  toolCallId: string;
  messages?: ModelMessage[] | undefined;
  abortSignal?: AbortSignal | undefined;
}

/**
 * The approval requests in `messages` that a person answered (`tool-approval-response`), by the id of the tool call
 * they were for, with the call itself: what `ai` 6 and 7 keep in the conversation.
 */
function answeredApprovals(
  messages: readonly ModelMessage[],
): Map<string, { toolName: string; input: unknown; approved: boolean; reason: string | undefined; automatic: boolean }> {
  const calls = new Map<string, { toolName: string; input: unknown }>();
  const requests = new Map<string, { toolCallId: string; automatic: boolean }>();
  const answered = new Map<
    string,
    { toolName: string; input: unknown; approved: boolean; reason: string | undefined; automatic: boolean }
  >();
  for (const message of messages) {
    if (!Array.isArray(message.content)) continue;
    for (const part of message.content as { type: string; [key: string]: unknown }[]) {
      if (part.type === 'tool-call') calls.set(String(part.toolCallId), { toolName: String(part.toolName), input: part.input });
      if (part.type === 'tool-approval-request') {
        requests.set(String(part.approvalId), { toolCallId: String(part.toolCallId), automatic: part.isAutomatic === true });
      }
      if (part.type === 'tool-approval-response') {
        const request = requests.get(String(part.approvalId));
        const call = request && calls.get(request.toolCallId);
        if (request && call) {
          answered.set(request.toolCallId, {
            ...call,
            approved: part.approved === true,
            reason: typeof part.reason === 'string' ? part.reason : undefined,
            automatic: request.automatic,
          });
        }
      }
    }
  }
  return answered;
}

/** Whether a person approved this `declare_intent` call through the AI SDK's approval (not an automatic approval). */
function approvedByPerson(messages: readonly ModelMessage[] | undefined, toolCallId: string): boolean {
  const answer = messages === undefined ? undefined : answeredApprovals(messages).get(toolCallId);
  return answer?.approved === true && !answer.automatic;
}

/**
 * The toolkit's tools as Vercel AI SDK tools (`generateText({ tools })`, `streamText`, agents), keyed by name. Their
 * input and output schemas are the spec-derived JSON Schemas (through `jsonSchema()`, no zod). A failed call throws
 * the `ToolError`, which the AI SDK hands the model as a tool error with the API's code and message. What the model
 * should do next (an intent waiting for a person, approved, rejected) follows the JSON in the tool's output. A
 * `declare_intent` call a person approved through the AI SDK's tool approval has the approval written to its intent.
 *
 * @example
 * ```ts
 * const { text } = await generateText({
 *   model,
 *   tools: toAISDKTools(toolkit),
 *   toolApproval: cardrailToolApproval(toolkit), // ai 7: a person decides what Cardrail says a person must decide
 *   stopWhen: stepCountIs(10),
 *   prompt: 'Buy 25 dollars of GPU credits from OpenAI.',
 * });
 * ```
 */
export function toAISDKTools(
  toolkit: CardrailToolkit,
  options: AISDKToolsOptions = {},
): Record<ToolName, Tool<Record<string, unknown>, unknown>> {
  const declined = declinedCallsOf(toolkit);
  const entries = toolkit.tools.map((cardrailTool) => {
    const name = cardrailTool.name;
    const execute = async (input: Record<string, unknown>, call: CallOptions): Promise<unknown> => {
      const callOptions = { callId: call.toolCallId, signal: call.abortSignal };
      if (name !== 'declare_intent') return toolkit.run(name, input, callOptions);
      const refusal = declined.take(call.toolCallId);
      if (refusal !== undefined) throw new ToolError({ code: 'spend_declined', message: refusal });
      if (approvedByPerson(call.messages, call.toolCallId)) return declareApproved(toolkit, input, call.toolCallId);
      return toolkit.run(name, input, callOptions);
    };
    const definition = tool({
      description: cardrailTool.description,
      inputSchema: jsonSchema<Record<string, unknown>>(structuredClone(cardrailTool.inputSchema)),
      outputSchema: jsonSchema<unknown>(structuredClone(cardrailTool.outputSchema)),
      execute,
      toModelOutput: ({ output }: { output: unknown }) => {
        const step = toolkit.nextStep(name, output);
        return step === undefined
          ? { type: 'json' as const, value: output as never }
          : {
              type: 'content' as const,
              value: [
                { type: 'text' as const, text: JSON.stringify(output) },
                { type: 'text' as const, text: step },
              ],
            };
      },
      ...(options.needsApproval && name === 'declare_intent'
        ? {
            needsApproval: async (input: Record<string, unknown>, call: { toolCallId: string }) => {
              const review = await reviewSpend(toolkit, input, call.toolCallId);
              if (review.status === 'denied') declined.remember(call.toolCallId, review.reason);
              return review.status === 'user-approval';
            },
          }
        : {}),
    });
    return [name, definition];
  });
  return Object.fromEntries(entries) as Record<ToolName, Tool<Record<string, unknown>, unknown>>;
}

/**
 * AI SDK 7's `toolApproval` for the toolkit's tools: before `declare_intent` runs, Cardrail judges the spend
 * (`POST /spend/evaluate`, then the card's policy). Nothing to approve: `not-applicable`, the call runs. The API
 * would decline it: `denied`, with the reasons, and nothing is declared. A person must decide: the intent is declared
 * (`pending_approval`: its `approvalUrl` and the `intent.pending_approval` webhook exist while they decide), then
 * `user-approval` with a reason naming the purchase and the link, so your app's approval UI, or the person on the
 * Cardrail page, decides. Resume with the person's answer: an approval is written to the intent when the call runs;
 * `recordApprovalResponses` writes rejections too.
 *
 * @example
 * ```ts
 * const result = await generateText({ model, tools, toolApproval: cardrailToolApproval(toolkit), messages });
 * for (const part of result.content) if (part.type === 'tool-approval-request') showToPerson(part.reason);
 * ```
 */
export function cardrailToolApproval(toolkit: CardrailToolkit): CardrailToolApproval {
  return {
    declare_intent: async (input, { toolCallId }) => {
      const review = await reviewSpend(toolkit, input, toolCallId);
      if (review.status === 'not-applicable') return { type: 'not-applicable' };
      return { type: review.status, reason: review.reason };
    },
  };
}

/** What `recordApprovalResponses` did with one answered approval. */
export interface RecordedDecision {
  /** The AI SDK's id of the `declare_intent` call. */
  toolCallId: string;
  /** Whether the person approved it. */
  approved: boolean;
  /** The intent as it now stands (`pending` once approved, `rejected`; or what it became meanwhile). */
  intent: Intent;
}

/**
 * Writes the decisions a person gave through the AI SDK's tool approval (the `tool-approval-response` parts in
 * `messages`) back to Cardrail: each answered `declare_intent` call's intent is approved, or rejected with the
 * person's reason, while it still waits. Call it with the conversation before resuming the run (a denial never runs
 * the tool, so only this records it); answering the same messages again changes nothing.
 */
export async function recordApprovalResponses(
  toolkit: CardrailToolkit,
  messages: readonly ModelMessage[],
): Promise<RecordedDecision[]> {
  const recorded: RecordedDecision[] = [];
  for (const [toolCallId, answer] of answeredApprovals(messages)) {
    if (answer.toolName !== 'declare_intent' || answer.automatic) continue;
    const intent = await decideSpend(toolkit, answer.input, toolCallId, {
      approved: answer.approved,
      reason: answer.reason ?? 'Rejected by a person in the application.',
    });
    recorded.push({ toolCallId, approved: answer.approved, intent });
  }
  return recorded;
}
