// The toolkit's side of a person's approval, framework-free: inputs checked against their schema before any request,
// wait_for_approval (bounded, scoped, with progress and abort), the next step a model is told, and the idempotency
// key a framework's call id gives a declaration.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CardrailToolkitOptions, ToolProgress } from '../src/index.js';
import { recordedToolkit, startWorld, type World } from './support/world.js';

let world: World;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(() => world.close());

const toolkitWith = (options: Partial<CardrailToolkitOptions> = {}) => recordedToolkit(world, options);

const purchase = { summary: 'One month of GPU credits', expectedAmount: 2_500, expectedMerchant: 'OpenAI' };

describe('inputs checked against their schema before any request', () => {
  it.each([
    [
      'declare_intent',
      { cardId: 'card_x', summary: 'GPU', expectedAmount: '25 dollars' },
      'expectedAmount',
      'must be an integer (got the string "25 dollars")',
    ],
    ['declare_intent', { cardId: 'card_x', summary: '', expectedAmount: 100 }, 'summary', 'must be at least 1 characters long'],
    [
      'declare_intent',
      { cardId: 'card_x', summary: 'GPU', expectedAmount: 100, tolerance: { percent: 200 } },
      'tolerance.percent',
      'must be at most 100 (got 200)',
    ],
    [
      'declare_intent',
      { cardId: 'card_x', summary: 'GPU', expectedAmount: 100, currency: 'dollars' },
      'currency',
      'must match the pattern ^[A-Za-z]{3}$ (got the string "dollars")',
    ],
    [
      'declare_intent',
      { cardId: 'card_x', summary: 'GPU', expectedAmount: 100, tolerance: { percent: 5, slack: 1 } },
      'tolerance',
      'does not take slack; its fields are percent, amount',
    ],
    ['evaluate_spend', { cardId: 'card_x', amount: -5 }, 'amount', 'must be at least 1 (got -5)'],
    [
      'list_transactions',
      { status: 'refunded' },
      'status',
      expect.stringMatching(/^must be one of "pending", .*\(got the string "refunded"\)$/),
    ],
    ['wait_for_approval', { intentId: 'int_x', timeoutSeconds: 3_600 }, 'timeoutSeconds', 'must be at most 300 (got 3600)'],
    ['wait_for_approval', { intentId: 'int_x', timeoutSeconds: 2.5 }, 'timeoutSeconds', 'must be an integer (got number 2.5)'],
    ['list_transactions', { limit: 'ten' }, 'limit', 'must be an integer (got the string "ten")'],
  ])('%s %j: %s %s', async (name, input, field, reason) => {
    const { toolkit, recorder } = toolkitWith();
    const result = await toolkit.call(name, input);
    expect(result).toMatchObject({ ok: false, error: { code: 'invalid_input', details: { field, reason } } });
    expect(recorder.sent).toEqual([]);
  });

  it('says every problem at once, and names the maximum of a wait past it', async () => {
    const { toolkit } = toolkitWith();
    const result = await toolkit.call('wait_for_approval', { intentId: '', timeoutSeconds: 301 });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.message).toBe(
      'wait_for_approval: intentId must be at least 1 characters long; timeoutSeconds must be at most 300 (got 301). Nothing was sent.',
    );
    expect(result.error.details?.problems).toHaveLength(2);
  });
});

describe('wait_for_approval', () => {
  it('answers the decision once a person approves, reporting progress while it waits', async () => {
    const { toolkit } = toolkitWith();
    const declared = (await toolkit.run('declare_intent', { cardId: world.approvalCard, ...purchase })) as { id: string };
    const progress: ToolProgress[] = [];
    const waiting = toolkit.call(
      'wait_for_approval',
      { intentId: declared.id, timeoutSeconds: 30 },
      {
        onProgress: (step) => progress.push(step),
      },
    );
    await expect.poll(() => progress.length, { timeout: 10_000 }).toBeGreaterThan(0);
    await world.api.intents.approve(declared.id);
    const decided = await waiting;
    expect(decided).toMatchObject({ ok: true, data: { id: declared.id, status: 'pending' } });
    if (!decided.ok) return;
    expect(decided.nextStep).toMatch(new RegExp(`^Intent ${declared.id} is approved: you may call get_card_credentials`));
    expect(progress[0]).toMatchObject({ message: expect.stringContaining(declared.id), totalMs: 30_000 });
  });

  it('answers a rejection with its reason, and tells the model not to pay', async () => {
    const { toolkit } = toolkitWith();
    const declared = (await toolkit.run('declare_intent', { cardId: world.approvalCard, ...purchase })) as { id: string };
    await world.api.intents.reject(declared.id, { reason: 'Not this month' });
    const decided = await toolkit.call('wait_for_approval', { intentId: declared.id });
    expect(decided).toMatchObject({ ok: true, data: { status: 'rejected', rejectionReason: 'Not this month' } });
    expect(decided.ok && decided.nextStep).toMatch(/rejected .*: Not this month\. Do not pay/);
  });

  it('answers the intent still pending_approval when the time is up, and says to wait again', async () => {
    const { toolkit } = toolkitWith();
    const declared = (await toolkit.run('declare_intent', { cardId: world.approvalCard, ...purchase })) as { id: string };
    const started = performance.now();
    const result = await toolkit.call('wait_for_approval', { intentId: declared.id, timeoutSeconds: 1 });
    expect(performance.now() - started).toBeGreaterThanOrEqual(900);
    expect(result).toMatchObject({ ok: true, data: { id: declared.id, status: 'pending_approval' } });
    expect(result.ok && result.nextStep).toMatch(
      /^Nobody has decided on intent .* call wait_for_approval with intentId \S+ again/,
    );
  });

  it("refuses another agent's intent: after one read when unknown, without any request once known", async () => {
    const theirs = await world.api.intents.create({ cardId: world.otherAgentCard, summary: 'Theirs', expectedAmount: 900 });
    const { toolkit, recorder } = toolkitWith();
    const first = await toolkit.call('wait_for_approval', { intentId: theirs.id });
    expect(first).toMatchObject({ ok: false, error: { code: 'out_of_scope', details: { intentId: theirs.id } } });
    expect(recorder.paths()).toEqual([`GET /intents/${theirs.id}`]);
    const again = await toolkit.call('wait_for_approval', { intentId: theirs.id, timeoutSeconds: 300 });
    expect(again).toMatchObject({ ok: false, error: { code: 'out_of_scope' } });
    expect(recorder.sent).toHaveLength(1);
  });

  it('bound to one card, refuses an intent of another card of the same agent', async () => {
    const other = await world.api.intents.create({ cardId: world.plainCard, summary: 'Plain', expectedAmount: 900 });
    const { toolkit } = toolkitWith({ cardId: world.approvalCard });
    expect(await toolkit.call('wait_for_approval', { intentId: other.id })).toMatchObject({
      ok: false,
      error: { code: 'out_of_scope' },
    });
  });

  it('stops at once when the caller aborts', async () => {
    const { toolkit } = toolkitWith();
    const declared = (await toolkit.run('declare_intent', { cardId: world.approvalCard, ...purchase })) as { id: string };
    const controller = new AbortController();
    const waiting = toolkit.call(
      'wait_for_approval',
      { intentId: declared.id, timeoutSeconds: 300 },
      { signal: controller.signal },
    );
    setTimeout(() => controller.abort(), 200);
    const started = performance.now();
    expect(await waiting).toMatchObject({ ok: false, error: { code: 'request_aborted' } });
    expect(performance.now() - started).toBeLessThan(10_000);
  });
});

describe('declare_intent', () => {
  it('tells the model a person must decide, and what to do meanwhile', async () => {
    const { toolkit } = toolkitWith();
    const result = await toolkit.call('declare_intent', { cardId: world.approvalCard, ...purchase });
    expect(result).toMatchObject({ ok: true, data: { status: 'pending_approval' } });
    expect(result.ok && result.nextStep).toMatch(
      /^A person must approve intent int_\w+ for One month of GPU credits \(25\.00 USD at OpenAI\) before you pay\. .* Then call wait_for_approval with intentId int_\w+\. Do not retrieve the card credentials or pay until it is approved\.$/,
    );
    const plain = await toolkit.call('declare_intent', { cardId: world.plainCard, ...purchase });
    expect(plain.ok && plain.nextStep).toMatch(/needs no approval: you may call get_card_credentials/);
  });

  it("with the framework's call id: the same call repeated is one intent; another input is another", async () => {
    const { toolkit, recorder } = toolkitWith();
    const input = { cardId: world.plainCard, ...purchase };
    const first = (await toolkit.run('declare_intent', input, { callId: 'call_abc' })) as { id: string };
    const again = (await toolkit.run('declare_intent', { ...input }, { callId: 'call_abc' })) as { id: string };
    const other = (await toolkit.run('declare_intent', { ...input, expectedAmount: 2_600 }, { callId: 'call_abc' })) as {
      id: string;
    };
    const unkeyed = (await toolkit.run('declare_intent', input)) as { id: string };
    expect(again.id).toBe(first.id);
    expect(other.id).not.toBe(first.id);
    expect(unkeyed.id).not.toBe(first.id);
    const keys = recorder.sent.filter((sent) => sent.path === '/intents').map((sent) => sent.headers.get('idempotency-key'));
    expect(keys[0]).toMatch(/^toolcall_[0-9a-f]{64}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).not.toBe(keys[0]);
  });
});
