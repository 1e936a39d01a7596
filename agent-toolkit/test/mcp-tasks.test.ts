// The tasks extension (io.modelcontextprotocol/tasks) on MCP 2026-07-28: a client that declares it gets a task for
// an intent waiting for a person; tasks/get follows the intent, tasks/cancel withdraws it, notifications/tasks goes
// out on a subscriptions/listen stream when the person decides, and a task outlives the handler that made it. Raw
// JSON-RPC, in process.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCardrailToolkit } from '../src/index.js';
import { createMcpFetchHandler, type McpFetchHandlerOptions } from '../src/mcp/index.js';
import { FOLLOWS_TASKS, modernRequest, modernRpc, rpcMessages, TASKS } from './support/rpc.js';
import { startWorld, type World } from './support/world.js';

const URL_ = 'http://127.0.0.1:4020/mcp';
const SECRET = 'a-state-secret-for-the-tasks-test-only';

let world: World;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(() => world.close());

function handlerFor(options: McpFetchHandlerOptions = {}, agentId = world.agentId) {
  const toolkit = createCardrailToolkit({ apiKey: world.apiKey, baseUrl: world.baseUrl, agentId });
  return createMcpFetchHandler(toolkit, { stateSecret: SECRET, ...options });
}
type Handler = ReturnType<typeof handlerFor>;

const purchase = () => ({
  cardId: world.approvalCard,
  summary: `Cloud credits ${Math.random().toString(36).slice(2, 7)}`,
  expectedAmount: 4_000,
  expectedMerchant: 'AWS',
});

/** declare_intent by a tasks client: the task it answers and the intent behind it. */
async function declareAsTask(handler: Handler): Promise<{ task: any; intentId: string }> {
  const { status, answer } = await modernRpc(
    URL_,
    'tools/call',
    { name: 'declare_intent', arguments: purchase() },
    {
      capabilities: FOLLOWS_TASKS,
      fetch: handler,
    },
  );
  expect(status).toBe(200);
  expect(answer.result).toMatchObject({ resultType: 'task', status: 'working', ttlMs: null, pollIntervalMs: 5_000 });
  const intentId = (answer.result.statusMessage as string).match(/intent (int_\w+)/)?.[1] as string;
  expect(answer.result.statusMessage).toContain(`/approvals/${intentId}`);
  return { task: answer.result, intentId };
}

const getTask = (handler: Handler, taskId: string, capabilities: Record<string, unknown> = FOLLOWS_TASKS) =>
  modernRpc(URL_, 'tasks/get', { taskId }, { capabilities, fetch: handler });

describe('tasks for a client that declares the tasks extension', () => {
  it('the task works while the intent waits, and completes with the approved intent and the next step', async () => {
    const handler = handlerFor();
    const { task, intentId } = await declareAsTask(handler);
    expect((await getTask(handler, task.taskId)).answer.result).toMatchObject({
      resultType: 'complete',
      taskId: task.taskId,
      status: 'working',
    });
    await world.api.intents.approve(intentId);
    const { answer } = await getTask(handler, task.taskId);
    expect(answer.result).toMatchObject({
      resultType: 'complete',
      status: 'completed',
      statusMessage: `Intent ${intentId} is approved (pending).`,
      result: { resultType: 'complete', structuredContent: { id: intentId, status: 'pending', approvedBy: 'api' } },
    });
    expect(answer.result.result.content.at(-1).text).toMatch(/is approved: you may call get_card_credentials/);
    await handler.close();
  });

  it('a rejection completes the task (the extension keeps failed for protocol errors), with the reason and "do not pay"', async () => {
    const handler = handlerFor();
    const { task, intentId } = await declareAsTask(handler);
    await world.api.intents.reject(intentId, { reason: 'Not this month' });
    const { answer } = await getTask(handler, task.taskId);
    expect(answer.result).toMatchObject({
      status: 'completed',
      statusMessage: `A person rejected intent ${intentId}: Not this month.`,
      result: { structuredContent: { status: 'rejected', rejectionReason: 'Not this month' } },
    });
    expect(answer.result.result.isError).toBeUndefined();
    expect(answer.result.result.content.at(-1).text).toMatch(/Do not pay/);
    await handler.close();
  });

  it('tasks/cancel withdraws the intent: it is rejected, the task cancelled, and cancelling again changes nothing', async () => {
    const handler = handlerFor();
    const { task, intentId } = await declareAsTask(handler);
    const cancel = () =>
      modernRpc(URL_, 'tasks/cancel', { taskId: task.taskId }, { capabilities: FOLLOWS_TASKS, fetch: handler });
    expect((await cancel()).answer.result).toMatchObject({ resultType: 'complete' });
    expect(await world.api.intents.retrieve(intentId)).toMatchObject({
      status: 'rejected',
      rejectionReason: "Cancelled by the agent's MCP client (tasks/cancel).",
    });
    expect((await getTask(handler, task.taskId)).answer.result).toMatchObject({ status: 'cancelled' });
    expect((await cancel()).answer.result).toMatchObject({ resultType: 'complete' });
    // An intent a person decided first stays decided.
    const decided = await declareAsTask(handler);
    await world.api.intents.approve(decided.intentId);
    await modernRpc(URL_, 'tasks/cancel', { taskId: decided.task.taskId }, { capabilities: FOLLOWS_TASKS, fetch: handler });
    expect((await world.api.intents.retrieve(decided.intentId)).status).toBe('pending');
    await handler.close();
  });

  it('a listen stream acknowledges the task, then notifies it completed when the person decides, and ends', async () => {
    const handler = handlerFor();
    const { task, intentId } = await declareAsTask(handler);
    const listen = modernRequest(
      URL_,
      'subscriptions/listen',
      { notifications: { taskIds: [task.taskId, 'ct1.int_x.declare_intent.bad'] } },
      {
        capabilities: FOLLOWS_TASKS,
      },
    );
    const response = await handler(listen);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    const readUntil = async (done: (messages: ReturnType<typeof rpcMessages>) => boolean) => {
      while (!done(rpcMessages(text))) {
        const chunk = await reader.read();
        if (chunk.done) break;
        text += decoder.decode(chunk.value, { stream: true });
      }
      return rpcMessages(text);
    };
    const [ack] = await readUntil((messages) => messages.length >= 1);
    expect(ack).toMatchObject({
      method: 'notifications/subscriptions/acknowledged',
      params: {
        notifications: { taskIds: [task.taskId] },
        _meta: { 'io.modelcontextprotocol/subscriptionId': expect.anything() },
      },
    });
    await world.api.intents.approve(intentId);
    const messages = await readUntil((all) => all.some((message) => message.result !== undefined));
    const notified = messages.find((message) => message.method === 'notifications/tasks');
    expect(notified?.params).toMatchObject({
      taskId: task.taskId,
      status: 'completed',
      result: { structuredContent: { id: intentId, status: 'pending' } },
    });
    // The notification is what tasks/get answers at that moment.
    const { answer } = await getTask(handler, task.taskId);
    const { _meta: _notification, ...notifiedTask } = notified?.params ?? {};
    const { _meta: _get, resultType: _type, ...gotTask } = answer.result;
    expect(notifiedTask).toEqual(gotTask);
    expect(messages.at(-1)).toMatchObject({ id: ack?.params._meta['io.modelcontextprotocol/subscriptionId'], result: {} });
    await handler.close();
  });

  it('a listen stream ends with its result when the server closes, and stops reading the intent', async () => {
    const handler = handlerFor();
    const { task } = await declareAsTask(handler);
    const response = await handler(
      modernRequest(URL_, 'subscriptions/listen', { notifications: { taskIds: [task.taskId] } }, { capabilities: FOLLOWS_TASKS }),
    );
    const body = response.text();
    await handler.close();
    const messages = rpcMessages(await body);
    expect(messages.map((message) => message.method ?? 'result')).toEqual(['notifications/subscriptions/acknowledged', 'result']);
  });

  it('a task survives a restart of the server (a new handler with the same secret): it is the intent', async () => {
    const first = handlerFor();
    const { task, intentId } = await declareAsTask(first);
    await first.close();
    await world.api.intents.approve(intentId);
    const restarted = handlerFor();
    expect((await getTask(restarted, task.taskId)).answer.result).toMatchObject({ status: 'completed' });
    await restarted.close();
  });

  it('a client that shows URLs is first asked to show the page (input_required), and its retry answers the task', async () => {
    const handler = handlerFor();
    const args = purchase();
    const capabilities = { ...FOLLOWS_TASKS, elicitation: { url: {} } };
    const first = await modernRpc(
      URL_,
      'tools/call',
      { name: 'declare_intent', arguments: args },
      { capabilities, fetch: handler },
    );
    expect(first.answer.result).toMatchObject({
      resultType: 'input_required',
      inputRequests: { approval: { params: { mode: 'url' } } },
    });
    const second = await modernRpc(
      URL_,
      'tools/call',
      {
        name: 'declare_intent',
        arguments: args,
        inputResponses: { approval: { action: 'accept' } },
        requestState: first.answer.result.requestState,
      },
      { capabilities, fetch: handler },
    );
    expect(second.answer.result).toMatchObject({
      resultType: 'task',
      status: 'working',
      taskId: expect.stringMatching(/^ct1\./),
    });
    await handler.close();
  });
});

describe('task requests a client may not make', () => {
  it("refuses another agent's task, a made-up or altered id, another server's, and a client that did not declare tasks", async () => {
    const handler = handlerFor();
    const { task, intentId } = await declareAsTask(handler);
    const notFound = { code: -32602, message: 'Failed to retrieve task: Task not found' };
    const [prefix, intent, tool, mac] = task.taskId.split('.');
    const cases: [string, Handler, string][] = [
      ['of another agent', handlerFor({}, world.otherAgentId), task.taskId],
      ['signed by another server', handlerFor({ stateSecret: 'another-state-secret-of-32-bytes-or-more' }), task.taskId],
      ['made up', handler, `ct1.${intentId}.declare_intent.AAAA`],
      ['for another intent', handler, [prefix, 'int_someoneelse00000', tool, mac].join('.')],
      ['for another tool', handler, [prefix, intent, 'get_intent', mac].join('.')],
      ['not an id at all', handler, 'x'.repeat(10_000)],
    ];
    for (const [label, other, taskId] of cases) {
      for (const method of ['tasks/get', 'tasks/cancel', 'tasks/update']) {
        const params = method === 'tasks/update' ? { taskId, inputResponses: {} } : { taskId };
        const { status, answer } = await modernRpc(URL_, method, params, { capabilities: FOLLOWS_TASKS, fetch: other });
        expect(status, `${label} ${method}`).toBe(200);
        expect(answer.error, `${label} ${method}`).toEqual(notFound);
      }
    }
    expect((await world.api.intents.retrieve(intentId)).status).toBe('pending_approval');
    const undeclared = await getTask(handler, task.taskId, {});
    expect(undeclared.status).toBe(400);
    expect(undeclared.answer.error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { extensions: { [TASKS]: {} } } },
    });
    const listen = await handler(
      modernRequest(URL_, 'subscriptions/listen', { notifications: { taskIds: [task.taskId] } }, { capabilities: {} }),
    );
    expect(listen.status).toBe(400);
    expect(rpcMessages(await listen.text())[0]?.error).toMatchObject({ code: -32021 });
    await handler.close();
  });

  it('with tasks turned off, a tasks client is asked like any other and the extension is not offered', async () => {
    const handler = handlerFor({ approval: { tasks: false } });
    const { answer } = await modernRpc(
      URL_,
      'tools/call',
      { name: 'declare_intent', arguments: purchase() },
      {
        capabilities: FOLLOWS_TASKS,
        fetch: handler,
      },
    );
    expect(answer.result).toMatchObject({ resultType: 'complete', structuredContent: { status: 'pending_approval' } });
    const discovered = await modernRpc(URL_, 'server/discover', {}, { fetch: handler });
    expect(discovered.answer.result.capabilities.extensions?.[TASKS]).toBeUndefined();
    await handler.close();
  });
});
