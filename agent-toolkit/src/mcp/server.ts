import {
  CLIENT_INFO_META_KEY,
  type CacheHint,
  type Implementation,
  ProtocolError,
  ProtocolErrorCode,
  ResourceNotFoundError,
  Server,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { CardrailToolkit } from '../toolkit.js';
import { VERSION } from '../version.js';
import { approvalClient, TASKS_EXTENSION } from './approval/approval-call.js';
import { approvalCardTools } from './apps/app-tools.js';
import { approvalCardResource } from './apps/card-resource.js';
import { DecisionCapabilities } from './apps/decision-capability.js';
import { APPROVAL_CARD_URI, rendersApps, UI_EXTENSION } from './apps/ui-extension.js';
import { type ApprovalElicitationOptions, type ApprovalSettings, approvalSettings } from './approval/settings.js';
import { API_KEY_SUBJECT, bindingOf, type McpAuthContext } from './auth-context.js';
import { conformanceFixtures } from './conformance-fixtures.js';
import { guardParams } from './params-guard.js';
import { RequestStates } from './request-states.js';
import { randomStateSecret, type StateSecret, stateSecretBytes } from './state-secret.js';
import { registerTaskHandlers } from './tasks/task-handlers.js';
import { TaskIds } from './tasks/task-id.js';
import { catalogToolEntry, type McpToolEntry } from './tool-entry.js';

/** Options of the MCP server. */
export interface CardrailMcpServerOptions {
  /** The server name clients show; default `cardrail`. */
  name?: string | undefined;
  /** How a tool that leaves an intent waiting for a person asks for the decision (see its defaults). */
  approval?: ApprovalElicitationOptions | undefined;
  /**
   * The secret (at least 32 bytes) the server signs what clients hold for it with: the `requestState` of a call that
   * asked for input, and task ids. Default: a random secret for this server, so that what clients hold does not
   * outlive the process; give the same secret to every process that may receive a client's retry or task request,
   * and across restarts (`cardrail-mcp` derives one from its API key).
   */
  stateSecret?: StateSecret | undefined;
  /**
   * Test only, off by default: adds the tools the MCP conformance suite calls by name (`test_missing_capability`,
   * `test_streaming_elicitation`, `test_logging_tool`, `test_input_required_result_tampered_state`). Never for a
   * server a model uses.
   */
  conformanceFixtures?: boolean | undefined;
}

/** What every server instance of one `createCardrailMcpServer`, handler or `serveStdio` call shares. */
export interface ServerParts {
  name: string;
  settings: ApprovalSettings;
  secret: Uint8Array;
  fixtures: boolean;
}

/** The options checked and completed once; a random secret when none is given. */
export function serverParts(options: CardrailMcpServerOptions): ServerParts {
  return {
    name: options.name ?? 'cardrail',
    settings: approvalSettings(options.approval),
    secret: options.stateSecret === undefined ? randomStateSecret() : stateSecretBytes(options.stateSecret),
    fixtures: options.conformanceFixtures === true,
  };
}

function instructions(toolkit: CardrailToolkit): string {
  const card = toolkit.cardId === undefined ? "the agent's cards" : `card ${toolkit.cardId}`;
  return (
    `Cardrail payment tools acting for agent ${toolkit.agentId} on ${card}. Amounts are in minor units (cents). ` +
    'Before paying: check_spending_power, then declare_intent. When the intent is pending_approval a person must ' +
    'decide (in the approval card the client shows, or on the page at its approvalUrl): call wait_for_approval; ' +
    'pay only once it is pending (approved). Then ' +
    'get_card_credentials and pay. Use freeze_card if anything looks wrong.'
  );
}

/**
 * `private`: the list and the instructions name the agent (and the card) the caller acts for. Ten minutes: the list
 * changes only with a new version of the server.
 */
const CACHE: CacheHint = { ttlMs: 600_000, cacheScope: 'private' };
const EMPTY = { ttlMs: 600_000, cacheScope: 'public' } satisfies CacheHint;

/**
 * One server instance for one context (its toolkit and caller). Tools, with their approval paths, the tasks extension
 * when enabled, and empty prompt and resource lists (clients that list them unconditionally get an empty, cacheable
 * answer rather than "method not found").
 *
 * The low-level `Server` rather than `McpServer`: the tools' schemas are JSON Schema derived from the spec and reach
 * clients unchanged, the toolkit checks inputs itself (its `invalid_input` errors name the field), and a tool with an
 * output schema may answer a task, which `McpServer` refuses for want of `structuredContent`.
 */
export function buildCardrailServer(context: McpAuthContext, parts: ServerParts): Server {
  const { toolkit } = context;
  const binding = bindingOf(context);
  const states = new RequestStates(parts.secret, binding);
  const tasks = new TaskIds(parts.secret, binding);
  const capabilities = new DecisionCapabilities(parts.secret, binding);
  const extensions = {
    ...(parts.settings.tasks ? { [TASKS_EXTENSION]: {} } : {}),
    ...(parts.settings.apps ? { [UI_EXTENSION]: {} } : {}),
  };
  const server = new Server(
    { name: parts.name, version: VERSION },
    {
      capabilities: {
        tools: { listChanged: false },
        prompts: { listChanged: false },
        resources: { listChanged: false },
        ...(Object.keys(extensions).length > 0 ? { extensions } : {}),
      },
      instructions: instructions(toolkit),
      cacheHints: {
        'tools/list': CACHE,
        'server/discover': CACHE,
        'prompts/list': EMPTY,
        'resources/list': EMPTY,
        'resources/templates/list': EMPTY,
      },
      requestState: { verify: states.verify },
    },
  );
  const initialized = () => server.getClientCapabilities();
  const deps = { toolkit, settings: parts.settings, states, tasks, capabilities, initialized };
  const entries: McpToolEntry[] = [
    ...toolkit.tools.map((tool) => catalogToolEntry(tool, deps)),
    ...approvalCardTools({ toolkit, capabilities, person: context.person, hostName: (ctx) => hostName(ctx, server) }),
    ...(parts.fixtures ? conformanceFixtures(states) : []),
  ];
  const byName = new Map(entries.map((entry) => [entry.definition.name, entry]));
  /** Whether this request's client renders MCP Apps (and the server shows it the approval card). */
  const apps = (ctx: ServerContext) => parts.settings.apps && rendersApps(approvalClient(ctx, initialized()));
  const offered = (ctx: ServerContext) => {
    const withApps = apps(ctx);
    return entries
      .filter((entry) => withApps || entry.appOnly !== true)
      .map((entry) => (withApps ? (entry.appsDefinition ?? entry.definition) : entry.definition));
  };
  server.setRequestHandler('tools/list', (_request, ctx) => ({ tools: offered(ctx) }));
  server.setRequestHandler('tools/call', async (request, ctx) => {
    const entry = byName.get(request.params.name);
    if (entry === undefined || (entry.appOnly === true && !apps(ctx))) {
      const names = offered(ctx).map((tool) => tool.name);
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Unknown tool ${request.params.name}; the tools are ${names.join(', ')}.`,
      );
    }
    return entry.call(request.params.arguments, ctx);
  });
  server.setRequestHandler('prompts/list', () => ({ prompts: [] }));
  server.setRequestHandler('prompts/get', (request) => {
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown prompt ${request.params.name}: this server has none.`);
  });
  // The approval card is found through the tools that link it (its spec lets a server leave it out of the list).
  server.setRequestHandler('resources/list', () => ({ resources: [] }));
  server.setRequestHandler('resources/templates/list', () => ({ resourceTemplates: [] }));
  server.setRequestHandler('resources/read', (request) => {
    if (request.params.uri === APPROVAL_CARD_URI && parts.settings.apps) return approvalCardResource();
    throw new ResourceNotFoundError(request.params.uri, `Resource not found: ${request.params.uri}.`);
  });
  if (parts.settings.tasks) registerTaskHandlers(server, tasks, toolkit);
  guardParams(server);
  return server;
}

/** The client's name as it introduced itself: on every 2026-07-28 request, or at a 2025-11-25 `initialize`. */
function hostName(ctx: ServerContext, server: Server): string | undefined {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  const info = (envelope?.[CLIENT_INFO_META_KEY] as Implementation | undefined) ?? server.getClientVersion();
  const name = info?.title ?? info?.name;
  return typeof name === 'string' && name.trim() !== '' ? name.trim() : undefined;
}

/**
 * An MCP server offering the toolkit's tools, for any transport (`server.connect(transport)`; MCP 2025-11-25 over a
 * connection, or served per request through `createMcpFetchHandler`, `serveStdio` and `serveHttp`, which speak
 * 2026-07-28 too). Every tool has a `title`, input and output JSON Schemas derived from the API's spec, and the hints
 * of the tool catalog (read-only, destructive, idempotent, open world); a call answers `structuredContent` with the
 * same data as JSON text beside it. A failed call is an MCP tool error (`isError: true`) whose text is
 * `{"error":{"code","message",...}}`; a call never takes the server down. An unknown tool name, and params that are
 * missing or not what the method takes, are protocol errors (-32602, invalid params) with a one-line message.
 *
 * A person's approval: a tool that may need one (`declare_intent`) answers an intent waiting for a person through the
 * path the client can take: a task (tasks extension), URL elicitation (`input_required` on 2026-07-28, an
 * `elicitation/create` request on 2025-11-25), or the link and the `wait_for_approval` step (docs/agents.md).
 *
 * @example
 * ```ts
 * const server = createCardrailMcpServer(toolkit);
 * await server.connect(transport); // any MCP transport
 * ```
 */
export function createCardrailMcpServer(toolkit: CardrailToolkit, options: CardrailMcpServerOptions = {}): Server {
  return buildCardrailServer({ toolkit, subject: API_KEY_SUBJECT }, serverParts(options));
}
