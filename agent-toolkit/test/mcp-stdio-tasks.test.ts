// Tasks over stdio (the built bin), on MCP 2026-07-28: the task, then a subscriptions/listen for it, acknowledged,
// and notifications/tasks when the person decides; a listen the client cancels ends; the bin still exits when stdin
// closes. Raw lines, as a client writes them.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, BIN } from './support/bin.js';
import { finished } from './support/child.js';
import { REVISION, type RpcMessage, TASKS } from './support/rpc.js';
import { startWorld, type World } from './support/world.js';

let world: World;
beforeAll(async () => {
  assertBuilt();
  world = await startWorld();
});
afterAll(() => world?.close());

const meta = {
  'io.modelcontextprotocol/protocolVersion': REVISION,
  'io.modelcontextprotocol/clientCapabilities': { extensions: { [TASKS]: {} } },
  'io.modelcontextprotocol/clientInfo': { name: 'stdio-tasks', version: '0.0.0' },
};

/** The bin over stdio: send a request, and wait for the first message that `match` accepts. */
function startBin() {
  const child = spawn(process.execPath, [BIN, '--agent', world.agentId, '--base-url', world.baseUrl], {
    env: { CARDRAIL_API_KEY: world.apiKey },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const done = finished(child);
  const seen: RpcMessage[] = [];
  const waiters: { match: (message: RpcMessage) => boolean; resolve: (message: RpcMessage) => void }[] = [];
  createInterface({ input: child.stdout }).on('line', (line) => {
    const message = JSON.parse(line) as RpcMessage;
    seen.push(message);
    for (const waiter of waiters.filter((candidate) => candidate.match(message))) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve(message);
    }
  });
  return {
    send: (message: Record<string, unknown>) => child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`),
    next: (match: (message: RpcMessage) => boolean) =>
      new Promise<RpcMessage>((resolve) => {
        const already = seen.find(match);
        if (already) resolve(already);
        else waiters.push({ match, resolve });
      }),
    close: () => {
      child.stdin.end();
      return done;
    },
  };
}

describe('tasks over stdio', () => {
  it('a listen acknowledges the task and notifies it when the person decides; a cancelled listen ends', async () => {
    const bin = startBin();
    const args = { cardId: world.approvalCard, summary: 'Tasks over stdio', expectedAmount: 1_500 };
    bin.send({ id: 1, method: 'tools/call', params: { name: 'declare_intent', arguments: args, _meta: meta } });
    const task = (await bin.next((message) => message.id === 1)).result;
    expect(task).toMatchObject({ resultType: 'task', status: 'working' });
    const intentId = (task.statusMessage as string).match(/intent (int_\w+)/)?.[1] as string;

    bin.send({ id: 'watch', method: 'subscriptions/listen', params: { notifications: { taskIds: [task.taskId] }, _meta: meta } });
    const ack = await bin.next((message) => message.method === 'notifications/subscriptions/acknowledged');
    expect(ack.params).toMatchObject({
      notifications: { taskIds: [task.taskId] },
      _meta: { 'io.modelcontextprotocol/subscriptionId': 'watch' },
    });
    await world.api.intents.approve(intentId);
    const notified = await bin.next((message) => message.method === 'notifications/tasks');
    expect(notified.params).toMatchObject({
      taskId: task.taskId,
      status: 'completed',
      result: { structuredContent: { status: 'pending' } },
    });
    expect(await bin.next((message) => message.id === 'watch')).toMatchObject({ result: { resultType: 'complete' } });

    // A listen the client cancels ends without a result; the connection goes on.
    const other = await (async () => {
      bin.send({
        id: 2,
        method: 'tools/call',
        params: { name: 'declare_intent', arguments: { ...args, summary: 'Another' }, _meta: meta },
      });
      return (await bin.next((message) => message.id === 2)).result;
    })();
    bin.send({
      id: 'second',
      method: 'subscriptions/listen',
      params: { notifications: { taskIds: [other.taskId] }, _meta: meta },
    });
    await bin.next(
      (message) =>
        message.method === 'notifications/subscriptions/acknowledged' &&
        message.params._meta['io.modelcontextprotocol/subscriptionId'] === 'second',
    );
    bin.send({ method: 'notifications/cancelled', params: { requestId: 'second' } });
    bin.send({ id: 3, method: 'tasks/get', params: { taskId: other.taskId, _meta: meta } });
    expect((await bin.next((message) => message.id === 3)).result).toMatchObject({ status: 'working' });

    const ended = await bin.close();
    expect(ended.status).toBe(0);
    expect(ended.stdout).not.toContain('"id":"second"');
  });
});
