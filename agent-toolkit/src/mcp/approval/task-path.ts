import { callToolResult } from '../tool-result.js';
import { taskOf, type TaskIntent } from '../tasks/task-state.js';
import { type ApprovalCall, followsTasks, showsUrls, type ToolCallAnswer, type WaitingIntent } from './approval-call.js';
import type { ApprovalPath } from './approval-path.js';
import { askToShowPage } from './url-elicitation.js';

/**
 * The answer that makes the call a task (the tasks extension's `CreateTaskResult`: `resultType: "task"` and the task).
 * Typed as a tool result for the SDK's handler signature, which does not know the extension's result.
 */
function createdTask(call: ApprovalCall, taskId: string, intent: TaskIntent): ToolCallAnswer {
  const { result: _none, ...task } = taskOf(taskId, call.tool.name, intent, call.toolkit);
  return { resultType: 'task', ...task } as unknown as ToolCallAnswer;
}

async function taskFor(call: ApprovalCall, intent: TaskIntent): Promise<ToolCallAnswer> {
  const taskId = await call.tasks.mint({ intentId: intent.id, tool: call.tool.name });
  return createdTask(call, taskId, intent);
}

/**
 * For a client that declared the tasks extension (2026-07-28): the call becomes a task that follows the intent until
 * a person decides (`tasks/get`, `tasks/cancel`, `notifications/tasks`; see task-state.ts for the statuses). When the
 * client also shows URLs, the call first asks it to show the approval page (`input_required`, as the extension
 * recommends for input needed before a task exists), and its retry answers the task, whatever the person chose.
 */
export const taskPath: ApprovalPath = {
  name: 'task',
  applies: (client, settings) => settings.tasks && followsTasks(client),
  async begin(call, _declared, intent: WaitingIntent) {
    if (call.settings.elicitation && showsUrls(call.client) && intent.approvalUrl) {
      return askToShowPage(call, { ...intent, approvalUrl: intent.approvalUrl }, this.name);
    }
    return taskFor(call, intent as unknown as TaskIntent);
  },
  async resume(call, state) {
    const read = await call.toolkit.call('get_intent', { intentId: state.intentId }, call.call);
    if (!read.ok) return callToolResult(read);
    const intent = read.data as TaskIntent;
    // Decided while the client showed the page: the answer itself, no task to follow.
    if (intent.status !== 'pending_approval') {
      const step = call.toolkit.nextStep(call.tool.name, intent);
      return callToolResult(step === undefined ? { ok: true, data: intent } : { ok: true, data: intent, nextStep: step });
    }
    return taskFor(call, intent);
  },
};
