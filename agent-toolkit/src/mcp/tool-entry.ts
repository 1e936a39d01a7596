import type { ClientCapabilities, ServerContext, Tool } from '@modelcontextprotocol/server';
import type { CardrailTool, CardrailToolkit } from '../toolkit.js';
import type { ToolCallOptions } from '../tools/tool-handler.js';
import { approvalClient, type ApprovalCall, type ToolCallAnswer, waitingIntent } from './approval/approval-call.js';
import { approvalPathNamed, chooseApprovalPath } from './approval/approval-path.js';
import type { DecisionCapabilities } from './apps/decision-capability.js';
import { APPROVAL_CARD_URI } from './apps/ui-extension.js';
import type { ApprovalSettings } from './approval/settings.js';
import { invalidRequestState, type RequestStates } from './request-states.js';
import type { TaskIds } from './tasks/task-id.js';
import { callToolResult } from './tool-result.js';

/** A tool as the MCP server offers it: what `tools/list` shows, and what a `tools/call` of it does. */
export interface McpToolEntry {
  definition: Tool;
  /** What a client that renders MCP Apps is shown instead: the tool linked to the approval card. */
  appsDefinition?: Tool | undefined;
  /** Offered only to a client that renders MCP Apps, which keeps it from the model: a tool of the approval card. */
  appOnly?: boolean | undefined;
  call(args: unknown, ctx: ServerContext): Promise<ToolCallAnswer>;
}

/** The `_meta` key saying a tool's answer may wait for a person's decision (from the catalog's `mayNeedPerson`). */
const MAY_NEED_PERSON_META = 'dev.cardrail/mayNeedPerson';

/** A catalog tool's MCP definition: its schemas as the spec derived them, and its hints as the catalog states them. */
function definitionOf(tool: CardrailTool): Tool {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    // JSON Schema as the spec derived it; the SDK's type narrows what a schema's values may be.
    inputSchema: tool.inputSchema as Tool['inputSchema'],
    outputSchema: tool.outputSchema as Tool['outputSchema'],
    annotations: {
      title: tool.title,
      readOnlyHint: tool.readOnly,
      destructiveHint: tool.destructive,
      idempotentHint: tool.idempotent,
      openWorldHint: tool.openWorld,
    },
    ...(tool.mayNeedPerson ? { _meta: { [MAY_NEED_PERSON_META]: true } } : {}),
  };
}

/**
 * A tool that may leave an intent waiting for a person, as a client that renders MCP Apps sees it: its results are
 * shown in the approval card (`_meta.ui.resourceUri`, and the deprecated flat key older hosts read).
 */
function linkedToCard(definition: Tool): Tool {
  return {
    ...definition,
    _meta: { ...definition._meta, ui: { resourceUri: APPROVAL_CARD_URI }, 'ui/resourceUri': APPROVAL_CARD_URI },
  };
}

/** The call's cancellation, and progress notifications to a client that asked for them (`progressToken`). */
function callOptions(ctx: ServerContext): ToolCallOptions {
  const progressToken = ctx.mcpReq._meta?.progressToken;
  if (progressToken === undefined) return { signal: ctx.mcpReq.signal };
  return {
    signal: ctx.mcpReq.signal,
    onProgress: (progress) => {
      void ctx.mcpReq
        .notify({
          method: 'notifications/progress',
          params: { progressToken, progress: progress.elapsedMs, total: progress.totalMs, message: progress.message },
        })
        .catch(() => undefined);
    },
  };
}

/** What a catalog tool's entry needs from the server it is offered by. */
export interface ToolEntryDeps {
  toolkit: CardrailToolkit;
  settings: ApprovalSettings;
  states: RequestStates;
  tasks: TaskIds;
  capabilities: DecisionCapabilities;
  /** The capabilities a 2025-11-25 client declared at `initialize` (none on the stateless HTTP leg). */
  initialized: () => ClientCapabilities | undefined;
}

/**
 * A catalog tool over MCP. A tool whose catalog entry says it may need a person gets an approval path chosen from
 * what the client declared, before the tool runs; when its answer is an intent waiting for a person, the path makes
 * the answer (see approval-path.ts). The retry of a call that asked for input (2026-07-28) carries a signed
 * `requestState`: it resumes that path, never runs the tool again, and is refused when it was issued for another
 * tool, other arguments, or another caller.
 */
export function catalogToolEntry(tool: CardrailTool, deps: ToolEntryDeps): McpToolEntry {
  const definition = definitionOf(tool);
  return {
    definition,
    appsDefinition: tool.mayNeedPerson ? linkedToCard(definition) : undefined,
    async call(args, ctx) {
      const client = approvalClient(ctx, deps.initialized());
      const options = callOptions(ctx);
      const approval = (): ApprovalCall => ({
        toolkit: deps.toolkit,
        tool,
        args,
        client,
        settings: deps.settings,
        ctx,
        call: options,
        seal: (fields, path) => deps.states.seal(ctx, tool.name, args, { ...fields, path }),
        tasks: deps.tasks,
        capabilities: deps.capabilities,
      });
      const state = await deps.states.check(ctx, tool.name, args);
      if (state !== undefined) {
        const path = approvalPathNamed(state.path);
        if (!tool.mayNeedPerson || path?.resume === undefined) throw invalidRequestState();
        return path.resume(approval(), state);
      }
      const path = tool.mayNeedPerson ? chooseApprovalPath(client, deps.settings) : undefined;
      const result = await deps.toolkit.call(tool.name, args, options);
      const intent = path === undefined ? undefined : waitingIntent(result);
      if (path === undefined || intent === undefined) return callToolResult(result);
      return path.begin(approval(), result, intent);
    },
  };
}
