import { ProtocolError, ProtocolErrorCode, type Server, type ServerContext } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';
import type { CardrailToolkit } from '../../toolkit.js';
import { approvalClient, followsTasks, TASKS_EXTENSION } from '../approval/approval-call.js';
import type { TaskIds, TaskRef } from './task-id.js';
import { CANCEL_REASON, type DetailedTask, type TaskIntent, taskOf } from './task-state.js';

/** Error code of a request the client may not make without declaring a capability (MCP 2026-07-28). */
const MISSING_REQUIRED_CLIENT_CAPABILITY = -32021;

const TaskParams = z.looseObject({ taskId: z.string() });
const TaskResult = z.looseObject({});

/** The extension asks for -32021 when a client that did not declare it uses a task method. */
function requireTasksDeclared(ctx: ServerContext, server: Server): void {
  if (followsTasks(approvalClient(ctx, server.getClientCapabilities()))) return;
  throw new ProtocolError(MISSING_REQUIRED_CLIENT_CAPABILITY, 'Missing required client capability', {
    requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } },
  });
}

/** The extension's answer to a task id that is unknown, made up, another caller's, or whose intent is gone. */
function taskNotFound(): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, 'Failed to retrieve task: Task not found');
}

/** Reads a task's intent (checked to be the agent's); answers the extension's errors. */
export async function readTask(
  taskId: unknown,
  tasks: TaskIds,
  toolkit: CardrailToolkit,
  signal?: AbortSignal,
): Promise<{ ref: TaskRef; intent: TaskIntent }> {
  const ref = await tasks.verify(taskId);
  if (ref === undefined) throw taskNotFound();
  const read = await toolkit.call('get_intent', { intentId: ref.intentId }, { signal });
  if (read.ok) return { ref, intent: read.data as TaskIntent };
  if (['not_found', 'out_of_scope', 'invalid_input'].includes(read.error.code)) throw taskNotFound();
  throw new ProtocolError(ProtocolErrorCode.InternalError, `Failed to retrieve task: ${read.error.message}`);
}

async function detailedTask(taskId: string, tasks: TaskIds, toolkit: CardrailToolkit, signal?: AbortSignal) {
  const { ref, intent } = await readTask(taskId, tasks, toolkit, signal);
  return taskOf(taskId, ref.tool, intent, toolkit);
}

/**
 * `tasks/get`, `tasks/update` and `tasks/cancel` of the tasks extension (`io.modelcontextprotocol/tasks`), by hand:
 * the SDK (2.4) has no runtime for them. A task is an intent (see task-id.ts and task-state.ts), so each request reads
 * the intent through the toolkit, which refuses another agent's, and nothing is kept between requests. `tasks/cancel`
 * withdraws an intent still waiting (rejects it with `CANCEL_REASON`); one decided meanwhile stays as decided.
 */
export function registerTaskHandlers(server: Server, tasks: TaskIds, toolkit: CardrailToolkit): void {
  server.setRequestHandler('tasks/get', { params: TaskParams, result: TaskResult }, async ({ taskId }, ctx) => {
    requireTasksDeclared(ctx, server);
    const task: DetailedTask = await detailedTask(taskId, tasks, toolkit, ctx.mcpReq.signal);
    return { ...task };
  });
  server.setRequestHandler('tasks/update', { params: TaskParams, result: TaskResult }, async ({ taskId }, ctx) => {
    requireTasksDeclared(ctx, server);
    // This server never asks for input during a task: every response is for a key it did not issue, and ignored.
    await readTask(taskId, tasks, toolkit, ctx.mcpReq.signal);
    return {};
  });
  server.setRequestHandler('tasks/cancel', { params: TaskParams, result: TaskResult }, async ({ taskId }, ctx) => {
    requireTasksDeclared(ctx, server);
    const { intent } = await readTask(taskId, tasks, toolkit, ctx.mcpReq.signal);
    if (intent.status !== 'pending_approval') return {};
    try {
      await toolkit.client.intents.reject(intent.id, { reason: CANCEL_REASON }, { signal: ctx.mcpReq.signal });
    } catch (error) {
      // Decided in the meantime: cancellation is cooperative, the task ends as decided.
      if ((error as { code?: unknown }).code !== 'invalid_state') {
        throw new ProtocolError(ProtocolErrorCode.InternalError, `Failed to cancel task: ${(error as Error).message}`);
      }
    }
    return {};
  });
}
