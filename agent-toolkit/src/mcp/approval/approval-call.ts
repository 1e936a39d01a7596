import {
  CLIENT_CAPABILITIES_META_KEY,
  type CallToolResult,
  type ClientCapabilities,
  type InputRequiredResult,
  PROTOCOL_VERSION_META_KEY,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { IntentFacts } from '../../next-step.js';
import type { CardrailTool, CardrailToolkit, ToolResult } from '../../toolkit.js';
import type { ToolCallOptions } from '../../tools/tool-handler.js';
import type { DecisionCapabilities } from '../apps/decision-capability.js';
import type { TaskIds } from '../tasks/task-id.js';
import type { ApprovalSettings } from './settings.js';

/** The extension a client declares to be answered with tasks (`io.modelcontextprotocol/tasks`). */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** The client making a request, as far as approvals go: its protocol revision's era and what it declared it can do. */
export interface ApprovalClient {
  /** `modern`: 2026-07-28 (capabilities on every request); `legacy`: 2025-11-25 (capabilities at `initialize`). */
  era: 'modern' | 'legacy';
  capabilities: ClientCapabilities | undefined;
}

/**
 * The requesting client: a 2026-07-28 request carries its protocol version and capabilities in its own `_meta`; a
 * 2025-11-25 request is served with what the connection's `initialize` declared (nothing, on the stateless HTTP leg).
 */
export function approvalClient(ctx: ServerContext, initialized: ClientCapabilities | undefined): ApprovalClient {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  if (envelope?.[PROTOCOL_VERSION_META_KEY] !== undefined) {
    return { era: 'modern', capabilities: envelope[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined };
  }
  return { era: 'legacy', capabilities: initialized };
}

export const showsUrls = (client: ApprovalClient) => client.capabilities?.elicitation?.url !== undefined;
export const followsTasks = (client: ApprovalClient) =>
  client.era === 'modern' &&
  (client.capabilities?.extensions as Record<string, unknown> | undefined)?.[TASKS_EXTENSION] !== undefined;

/** An intent a tool answered that waits for a person. */
export type WaitingIntent = Pick<
  IntentFacts,
  'id' | 'status' | 'summary' | 'expectedAmount' | 'currency' | 'expectedMerchant' | 'approvalUrl' | 'expiresAt'
> & { createdAt: string };

/** The intent of a tool's answer when it waits for a person's decision (whatever the tool), else undefined. */
export function waitingIntent(result: ToolResult): WaitingIntent | undefined {
  if (!result.ok) return undefined;
  const data = result.data as Partial<WaitingIntent> | undefined;
  return data?.status === 'pending_approval' && typeof data.id === 'string' ? (data as WaitingIntent) : undefined;
}

/** What a 2026-07-28 server hands the client to give back on its retry (signed; see `RequestStates`). */
export interface ApprovalState {
  /** The tool that was called: a state is valid for that tool only. */
  tool: string;
  /** A digest of the call's arguments: the retry must be the same call. */
  args: string;
  /** The intent that waits. */
  intentId: string;
  /** The approval path that asked (its name), which the retry resumes. */
  path: string;
}

/** A tool call's answer on the wire: a result, a request for input (2026-07-28), or a task (tasks extension). */
export type ToolCallAnswer = CallToolResult | InputRequiredResult;

/** Everything an approval path works with for one tool call. */
export interface ApprovalCall {
  toolkit: CardrailToolkit;
  tool: CardrailTool;
  /** The call's arguments as the client sent them. */
  args: unknown;
  client: ApprovalClient;
  settings: ApprovalSettings;
  ctx: ServerContext;
  /** The call's signal and progress reporting, for waits. */
  call: ToolCallOptions;
  /** Seals the state of a request for input. */
  seal(state: Omit<ApprovalState, 'tool' | 'args' | 'path'>, path: string): Promise<string>;
  tasks: TaskIds;
  /** Mints the approval card's decision capabilities. */
  capabilities: DecisionCapabilities;
}
