/**
 * The toolkit as OpenAI Agents SDK tools (`toOpenAIAgentsTools`), with a person's approval of a purchase as the
 * SDK's own interruption (`needsApproval`), and the decision written back to Cardrail (`cardrailApprovals`).
 * `@openai/agents` is a peer dependency (it needs Node.js 22 or newer).
 *
 * @module @cardrail/agent-toolkit/openai-agents
 */
import { type FunctionTool, type RunToolApprovalItem, tool } from '@openai/agents';
import { declinedCallsOf } from '../approval/declined-calls.js';
import { decideSpend, type Intent, reviewSpend } from '../approval/spend-review.js';
import type { ToolName } from '../generated/tool-schemas.js';
import type { CardrailTool, CardrailToolkit } from '../toolkit.js';
import { fromStrictArguments, toStrictSchema } from './openai-strict.js';

/** What the model reads as a tool's output: the JSON, then the next step when there is one. */
function modelOutput(toolkit: CardrailToolkit, name: ToolName, result: Awaited<ReturnType<CardrailToolkit['call']>>): string {
  if (!result.ok) return JSON.stringify({ error: result.error });
  const json = JSON.stringify(result.data);
  const step = toolkit.nextStep(name, result.data);
  return step === undefined ? json : `${json}\n\n${step}`;
}

function asInput(tool: CardrailTool, value: unknown): unknown {
  return fromStrictArguments(tool.inputSchema, value);
}

/**
 * The toolkit's tools as OpenAI Agents SDK function tools (`new Agent({ tools })`), in strict mode, with the
 * spec-derived schemas (strict mode's subset: see `toOpenAITools`). A tool answers JSON text, or
 * `{"error":{"code","message",...}}` when the call failed, followed by the next step when the answer leaves it to
 * guess. `declare_intent` asks for a person's approval as the SDK does, with `needsApproval`: Cardrail judges the
 * spend first (`POST /spend/evaluate`, then the card's policy). Nothing to approve: the call runs. The API would
 * decline it: the call runs and answers the refusal (`spend_declined`, with the reasons) without declaring anything.
 * A person must decide: the intent is declared (`pending_approval`, with its `approvalUrl`) and the run stops with an
 * interruption; answer it with `cardrailApprovals(toolkit)`, which writes the decision to the intent, and run again.
 *
 * @example
 * ```ts
 * const agent = new Agent({ name: 'Buyer', instructions, tools: toOpenAIAgentsTools(toolkit) });
 * let result = await run(agent, 'Buy 25 dollars of GPU credits from OpenAI.');
 * const approvals = cardrailApprovals(toolkit);
 * for (const item of result.interruptions) await approvals.approve(result.state, item); // or reject(...)
 * result = await run(agent, result.state);
 * ```
 */
export function toOpenAIAgentsTools(toolkit: CardrailToolkit): FunctionTool[] {
  const declined = declinedCallsOf(toolkit);
  return toolkit.tools.map((cardrailTool) => {
    const name = cardrailTool.name;
    return tool({
      name,
      description: cardrailTool.description,
      parameters: toStrictSchema(cardrailTool.inputSchema) as never,
      strict: true,
      execute: async (input: unknown, _context, details) => {
        const callId = details?.toolCall?.callId;
        if (name === 'declare_intent' && callId !== undefined) {
          const refusal = declined.take(callId);
          if (refusal !== undefined) return JSON.stringify({ error: { code: 'spend_declined', message: refusal } });
        }
        const result = await toolkit.call(name, asInput(cardrailTool, input), {
          ...(callId === undefined ? {} : { callId }),
          ...(details?.signal === undefined ? {} : { signal: details.signal }),
        });
        return modelOutput(toolkit, name, result);
      },
      ...(name === 'declare_intent'
        ? {
            needsApproval: async (_context: unknown, input: unknown, callId?: string) => {
              if (callId === undefined) return false;
              const review = await reviewSpend(toolkit, asInput(cardrailTool, input), callId);
              if (review.status === 'denied') declined.remember(callId, review.reason);
              return review.status === 'user-approval';
            },
          }
        : {}),
    }) as FunctionTool;
  });
}

/** What the approvals need of a run's state (`result.state`, a `RunState` of any agent and context). */
export interface ApprovableRunState {
  /** `RunState.approve`. */
  approve(item: RunToolApprovalItem): void;
  /** `RunState.reject`. */
  reject(item: RunToolApprovalItem, options?: { message?: string }): void;
}

/** Answers to the interruptions `declare_intent` raises, written back to Cardrail. */
export interface CardrailApprovals {
  /**
   * The intent an interruption asks about (declared when the run stopped, waiting for a person): what to show the
   * person (summary, amount, merchant, `approvalUrl`). Undefined for an interruption of another tool.
   */
  intentOf(item: RunToolApprovalItem): Promise<Intent | undefined>;
  /**
   * Approves the purchase: the intent is approved, then the tool call (`state.approve`). Whichever decision reaches
   * Cardrail first counts: an intent rejected meanwhile on its page rejects the call instead. Resolves with the intent.
   */
  approve(state: ApprovableRunState, item: RunToolApprovalItem): Promise<Intent>;
  /**
   * Rejects the purchase: the intent is rejected with `reason`, then the tool call (`state.reject`, the model told
   * why). An intent approved meanwhile on its page approves the call instead. Resolves with the intent.
   */
  reject(state: ApprovableRunState, item: RunToolApprovalItem, options?: { reason?: string | undefined }): Promise<Intent>;
  /**
   * Lets the Cardrail page decide: waits for the person's decision on the intent (`intents.waitForDecision`) and
   * answers the tool call with it. Past `timeoutMs` it throws `DecisionTimeoutError`, leaving the call unanswered.
   */
  awaitDecision(
    state: ApprovableRunState,
    item: RunToolApprovalItem,
    options?: { timeoutMs?: number | undefined; signal?: AbortSignal | undefined; pollIntervalMs?: number | undefined },
  ): Promise<Intent>;
}

/**
 * The way to answer the approvals `toOpenAIAgentsTools` asks for, keeping Cardrail and the run in step: the
 * decision is written to the intent (so `intent.approved` or `intent.rejected` reaches your webhooks and the page
 * shows it), then to the run state, which you pass to `run(agent, state)` again.
 */
export function cardrailApprovals(toolkit: CardrailToolkit): CardrailApprovals {
  const declare = toolkit.tools.find((candidate) => candidate.name === 'declare_intent') as CardrailTool;

  const callOf = (item: RunToolApprovalItem): { input: unknown; callId: string } | undefined => {
    const raw = item.rawItem as { type?: string; callId?: string; name?: string };
    if (raw.type !== 'function_call' || item.name !== 'declare_intent' || typeof raw.callId !== 'string') return undefined;
    return { input: asInput(declare, JSON.parse(item.arguments ?? '{}')), callId: raw.callId };
  };
  const required = (item: RunToolApprovalItem) => {
    const call = callOf(item);
    if (call === undefined) {
      throw new TypeError(
        `@cardrail/agent-toolkit: ${item.name ?? 'this'} interruption is not a declare_intent call of the Cardrail tools.`,
      );
    }
    return call;
  };
  /** The run follows what Cardrail now says about the intent. */
  const follow = (state: ApprovableRunState, item: RunToolApprovalItem, intent: Intent): Intent => {
    if (intent.status === 'pending') state.approve(item);
    else
      state.reject(item, {
        message: toolkit.nextStep('wait_for_approval', intent) ?? `Intent ${intent.id} is ${intent.status}.`,
      });
    return intent;
  };

  return {
    async intentOf(item) {
      const call = callOf(item);
      if (call === undefined) return undefined;
      return (await toolkit.run('declare_intent', call.input, { callId: call.callId })) as Intent;
    },
    async approve(state, item) {
      const { input, callId } = required(item);
      return follow(state, item, await decideSpend(toolkit, input, callId, { approved: true }));
    },
    async reject(state, item, options = {}) {
      const { input, callId } = required(item);
      const reason = options.reason ?? 'Rejected by a person in the application.';
      return follow(state, item, await decideSpend(toolkit, input, callId, { approved: false, reason }));
    },
    async awaitDecision(state, item, options = {}) {
      const { input, callId } = required(item);
      const intent = (await toolkit.run('declare_intent', input, { callId })) as Intent;
      const decided = await toolkit.client.intents.waitForDecision(intent.id, options);
      return follow(state, item, decided);
    },
  };
}
