import type { Intent } from '@cardrail/sdk';
import type { ServerContext, Tool } from '@modelcontextprotocol/server';
import { customerAppTools, type GeneratedAppToolSet, userAppTools } from '../../generated/tool-schemas.js';
import type { GeneratedTool } from '../../generated-tool.js';
import { inputValidator } from '../../input-validation.js';
import { toToolError } from '../../tool-error.js';
import { readToolInput } from '../../tool-input.js';
import type { CardrailToolkit } from '../../toolkit.js';
import type { McpToolEntry } from '../tool-entry.js';
import { callToolResult } from '../tool-result.js';
import { approvalCardFacts } from './card-facts.js';
import { alreadyDecided, capabilityRefused, notThisAgents, reasonWithApproval } from './card-refusals.js';
import type { DecisionCapabilities } from './decision-capability.js';
import { APPROVAL_CARD_URI } from './ui-extension.js';

/** What the approval card's tools need from the server that offers them. */
export interface AppToolDeps {
  toolkit: CardrailToolkit;
  capabilities: DecisionCapabilities;
  /** The person the caller acts for, when the authenticator knows one: recorded as the decider. */
  person: string | undefined;
  /** The client's name as it introduced itself (`Claude`), for where the person decided. */
  hostName(ctx: ServerContext): string | undefined;
}

const SETS: Record<CardrailToolkit['variant'], GeneratedAppToolSet> = { customer: customerAppTools, user: userAppTools };

/** An app-only tool's definition: hidden from the model by the host, callable by the approval card's view. */
function definitionOf(tool: GeneratedTool, withOutput: boolean): Tool {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: tool.inputSchema as Tool['inputSchema'],
    ...(withOutput ? { outputSchema: tool.outputSchema as Tool['outputSchema'] } : {}),
    annotations: {
      title: tool.title,
      readOnlyHint: tool.readOnly,
      destructiveHint: tool.destructive,
      idempotentHint: tool.idempotent,
      openWorldHint: tool.openWorld,
    },
    _meta: { ui: { resourceUri: APPROVAL_CARD_URI, visibility: ['app'] } },
  };
}

/** The input checked against the tool's schema (from the spec), and the capability against the intent it names. */
async function checkedCall(tool: GeneratedTool, args: unknown, deps: AppToolDeps, allowExpired: boolean) {
  const input = readToolInput(tool, args, tool.inputSchema.required ?? []);
  inputValidator(tool.name, tool.inputSchema)(input);
  const intentId = input.intentId as string;
  const refusal = await deps.capabilities.check(input.capability, intentId);
  if (refusal !== undefined && !(allowExpired && refusal === 'expired')) throw capabilityRefused(tool.name, intentId, refusal);
  const intent = await deps.toolkit.client.intents.retrieve(intentId);
  const { agentId, cardId } = deps.toolkit;
  if (intent.agentId !== agentId || (cardId !== undefined && intent.cardId !== cardId)) throw notThisAgents(intentId, agentId);
  return { input, intent };
}

/** Waits, at most `seconds`, for a person to decide an intent that waits (elsewhere: the dashboard, another client). */
async function decidedOrAsIs(toolkit: CardrailToolkit, intent: Intent, seconds: number, signal: AbortSignal): Promise<Intent> {
  if (intent.status !== 'pending_approval' || seconds === 0) return intent;
  try {
    return await toolkit.client.intents.waitForDecision(intent.id, { timeoutMs: seconds * 1000, signal });
  } catch (error) {
    if ((error as { code?: unknown }).code === 'decision_timeout' && 'intent' in (error as object)) {
      return (error as { intent: Intent }).intent;
    }
    throw error;
  }
}

/**
 * The approval card's two tools, `approval_card_read` and `approval_card_decide` (app only: a host lists them to the
 * card's view, never to the model). Each call must carry the decision capability the server gave the card for its
 * intent (decision-capability.ts) and is refused without it, for another intent, or once it expired (reading an
 * expired intent stays allowed, so a stale card can show what became of it); the intent must be the agent's. A
 * decision on an intent that no longer waits changes nothing.
 */
export function approvalCardTools(deps: AppToolDeps): McpToolEntry[] {
  const set = SETS[deps.toolkit.variant];
  const read = set.approval_card_read;
  const decide = set.approval_card_decide;
  const reasonMaxLength = (decide.inputSchema.properties.reason as { maxLength?: number } | undefined)?.maxLength ?? 500;
  return [
    {
      definition: definitionOf(read, false),
      appOnly: true,
      async call(args, ctx) {
        try {
          const { input, intent } = await checkedCall(read, args, deps, true);
          const seconds = (input.waitSeconds as number | undefined) ?? 0;
          const now = await decidedOrAsIs(deps.toolkit, intent, seconds, ctx.mcpReq.signal);
          return callToolResult({ ok: true, data: await approvalCardFacts(deps.toolkit, now, reasonMaxLength) });
        } catch (error) {
          return callToolResult({ ok: false, error: toToolError(error).toJSON() });
        }
      },
    },
    {
      definition: definitionOf(decide, true),
      appOnly: true,
      async call(args, ctx) {
        try {
          const { input, intent } = await checkedCall(decide, args, deps, false);
          if (input.decision === 'approve' && input.reason !== undefined) throw reasonWithApproval();
          if (intent.status !== 'pending_approval') throw alreadyDecided(intent);
          const host = deps.hostName(ctx);
          const decidedBy = {
            ...(deps.person === undefined ? {} : { name: deps.person.slice(0, 200) }),
            via: host === undefined ? 'the approval card' : `the approval card in ${host.slice(0, 150)}`,
          };
          const options = { signal: ctx.mcpReq.signal };
          const { intents } = deps.toolkit.client;
          const decided =
            input.decision === 'approve'
              ? await intents.approve(intent.id, { decidedBy }, options)
              : await intents.reject(
                  intent.id,
                  { ...(typeof input.reason === 'string' && input.reason !== '' ? { reason: input.reason } : {}), decidedBy },
                  options,
                );
          return callToolResult({ ok: true, data: decided });
        } catch (error) {
          return callToolResult({ ok: false, error: toToolError(error).toJSON() });
        }
      },
    },
  ];
}
