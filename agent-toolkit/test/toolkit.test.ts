import { Cardrail } from '@cardrail/sdk';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createCardrailToolkit, TOOL_NAMES, ToolError, type CardrailToolkitOptions } from '../src/index.js';
import { userTools } from '../src/generated/tool-schemas.js';
import { recordedToolkit, startWorld, type World } from './support/world.js';

let world: World;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(() => world.close());

const toolkitWith = (options: Partial<CardrailToolkitOptions> = {}) => recordedToolkit(world, options);

describe('scope', () => {
  it("refuses another agent's card after one read of the card, and without any request from then on", async () => {
    const { toolkit, recorder } = toolkitWith();
    const first = await toolkit.call('freeze_card', { cardId: world.otherAgentCard });
    expect(first).toMatchObject({ ok: false, error: { code: 'out_of_scope', details: { cardId: world.otherAgentCard } } });
    expect(recorder.paths()).toEqual([`GET /cards/${world.otherAgentCard}`]);

    for (const [name, args] of [
      ['freeze_card', {}],
      ['get_card_credentials', {}],
      ['evaluate_spend', { amount: 100 }],
      ['declare_intent', { summary: 'x', expectedAmount: 100 }],
      ['list_transactions', {}],
      ['check_spending_power', {}],
    ] as const) {
      const refused = await toolkit.call(name, { ...args, cardId: world.otherAgentCard });
      expect(refused, name).toMatchObject({ ok: false, error: { code: 'out_of_scope' } });
    }
    expect(recorder.sent).toHaveLength(1);
    expect((await world.api.cards.retrieve(world.otherAgentCard)).status).toBe('active');
  });

  it('checks an own card once and then acts on it directly', async () => {
    const { toolkit, recorder } = toolkitWith();
    await toolkit.run('check_spending_power', { cardId: world.approvalCard });
    await toolkit.run('evaluate_spend', { cardId: world.approvalCard, amount: 100 });
    expect(recorder.paths()).toEqual([
      `GET /cards/${world.approvalCard}`,
      `GET /cards/${world.approvalCard}/policy`,
      'POST /spend/evaluate',
    ]);
  });

  it('asks again after a failed ownership read instead of remembering the failure', async () => {
    const { toolkit, recorder } = toolkitWith();
    for (let i = 0; i < 2; i++) {
      expect(await toolkit.call('check_spending_power', { cardId: 'card_doesnotexist' })).toMatchObject({
        ok: false,
        error: { code: 'not_found', status: 404 },
      });
    }
    expect(recorder.paths()).toEqual(['GET /cards/card_doesnotexist', 'GET /cards/card_doesnotexist']);
  });

  it('bound to a card, refuses every other card without a request and defaults cardId to it', async () => {
    const { toolkit, recorder } = toolkitWith({ cardId: world.intentCard });
    expect(await toolkit.call('freeze_card', { cardId: world.approvalCard })).toMatchObject({
      ok: false,
      error: { code: 'out_of_scope' },
    });
    expect(recorder.sent).toEqual([]);
    expect(await toolkit.run('check_spending_power')).toMatchObject({ cardId: world.intentCard });
    const listing = toolkit.tools.find((tool) => tool.name === 'check_spending_power');
    expect(listing?.inputSchema.required).toBeUndefined();
    expect(listing?.inputSchema.properties.cardId?.description).toContain(world.intentCard);
  });

  it("bound to another agent's card, refuses every card tool", async () => {
    const { toolkit } = toolkitWith({ cardId: world.otherAgentCard });
    for (const name of ['check_spending_power', 'get_card_credentials', 'freeze_card', 'list_transactions']) {
      expect(await toolkit.call(name), name).toMatchObject({ ok: false, error: { code: 'out_of_scope' } });
    }
  });

  it("refuses another agent's intent without returning it, and without a request the second time", async () => {
    const theirs = await world.api.intents.create({
      cardId: world.otherAgentCard,
      summary: 'Their purchase',
      expectedAmount: 700,
    });
    const { toolkit, recorder } = toolkitWith();
    const first = await toolkit.call('get_intent', { intentId: theirs.id });
    expect(first).toEqual({
      ok: false,
      error: expect.objectContaining({ code: 'out_of_scope', details: { intentId: theirs.id } }),
    });
    expect(JSON.stringify(first)).not.toContain('Their purchase');
    expect(await toolkit.call('get_intent', { intentId: theirs.id })).toMatchObject({
      ok: false,
      error: { code: 'out_of_scope' },
    });
    expect(recorder.paths()).toEqual([`GET /intents/${theirs.id}`]);
  });

  it("refuses credentials for an own card naming another agent's intent, before asking for credentials", async () => {
    const theirs = await world.api.intents.create({ cardId: world.otherAgentCard, summary: 'Theirs', expectedAmount: 700 });
    const { toolkit, recorder } = toolkitWith();
    const refused = await toolkit.call('get_card_credentials', { cardId: world.plainCard, intentId: theirs.id });
    expect(refused).toMatchObject({ ok: false, error: { code: 'out_of_scope', details: { intentId: theirs.id } } });
    expect(recorder.paths().some((path) => path.endsWith('/credentials'))).toBe(false);
  });

  it('knows the intents it declared without reading them again', async () => {
    const { toolkit, recorder } = toolkitWith();
    const intent = (await toolkit.run('declare_intent', {
      cardId: world.intentCard,
      summary: 'Domain renewal',
      expectedAmount: 1_200,
    })) as { id: string };
    await toolkit.run('get_card_credentials', { cardId: world.intentCard, intentId: intent.id });
    expect(recorder.paths()).toEqual([
      `GET /cards/${world.intentCard}`,
      'POST /intents',
      `POST /cards/${world.intentCard}/credentials`,
    ]);
  });

  it('sets the agent itself: evaluate_spend and list_transactions send the bound agent, a model cannot pass another', async () => {
    const { toolkit, recorder } = toolkitWith();
    await toolkit.run('list_transactions', {});
    await toolkit.run('evaluate_spend', { cardId: world.plainCard, amount: 100 });
    const [list, , evaluate] = recorder.sent;
    expect(list?.path).toBe('/transactions');
    expect(list?.query.get('agentId')).toBe(world.agentId);
    expect(evaluate).toMatchObject({
      path: '/spend/evaluate',
      body: { cardId: world.plainCard, amount: 100, agentId: world.agentId },
    });
    expect(await toolkit.call('list_transactions', { agentId: world.otherAgentId })).toMatchObject({
      ok: false,
      error: { code: 'invalid_input' },
    });
    expect(await toolkit.call('get_card_credentials', { cardId: world.plainCard, exposureMode: 'rawPan' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_input', details: { fields: ['exposureMode'] } },
    });
  });
});

describe('list_transactions', () => {
  it("lists only the agent's own transactions", async () => {
    const mine = await world.api.simulate.authorize({ cardId: world.intentCard, amount: 300, merchant: { name: 'Shop' } });
    const theirs = await world.api.simulate.authorize({ cardId: world.otherAgentCard, amount: 400, merchant: { name: 'Shop' } });
    const { toolkit } = toolkitWith();
    const page = (await toolkit.run('list_transactions', { limit: 100 })) as { data: { id: string }[]; hasMore: boolean };
    const ids = page.data.map((txn) => txn.id);
    expect(ids).toContain(mine.id);
    expect(ids).not.toContain(theirs.id);
    expect(page.hasMore).toBe(false);
  });
});

describe('credentials', () => {
  it('are masked by default (last 4 and expiry, no number, no CVC) and every access is recorded as credential.accessed', async () => {
    const { toolkit } = toolkitWith();
    const masked = (await toolkit.run('get_card_credentials', { cardId: world.plainCard })) as Record<string, unknown>;
    const card = await world.api.cards.retrieve(world.plainCard);
    expect(masked).toEqual({
      cardId: world.plainCard,
      last4: card.last4,
      expMonth: card.expMonth,
      expYear: card.expYear,
      accessEventId: expect.stringMatching(/^acc_/),
      expiresAt: expect.any(String),
      exposure: 'masked',
    });
    expect(JSON.stringify(masked)).not.toMatch(/[0-9]{12}/);
    expect(Date.parse(masked.expiresAt as string)).toBeGreaterThan(world.running.mock.clock.now(world.apiKey).getTime());
    const accesses = await world.api.events.list({ type: 'credential.accessed' });
    expect(accesses.data.map((event) => (event.data as { accessEventId: string }).accessEventId)).toContain(masked.accessEventId);
  });

  it('are shown in full only when the developer opts in', async () => {
    const { toolkit } = toolkitWith({ credentialExposure: 'full' });
    const full = await toolkit.run('get_card_credentials', { cardId: world.plainCard });
    expect(full).toMatchObject({
      cardId: world.plainCard,
      pan: expect.stringMatching(/^[0-9]{16}$/),
      cvc: expect.stringMatching(/^[0-9]{3}$/),
      exposure: 'full',
    });
  });

  it("reach the developer's onCredentials in full while the model sees them masked; a failing hook fails the call", async () => {
    const onCredentials = vi.fn();
    const { toolkit } = toolkitWith({ onCredentials });
    const masked = (await toolkit.run('get_card_credentials', { cardId: world.plainCard })) as {
      last4: string;
      accessEventId: string;
    };
    expect(onCredentials).toHaveBeenCalledOnce();
    const [given] = onCredentials.mock.calls[0] as [{ pan: string; accessEventId: string }];
    expect(given.pan.slice(-4)).toBe(masked.last4);
    expect(given.accessEventId).toBe(masked.accessEventId);

    const failing = toolkitWith({ onCredentials: () => Promise.reject(new Error('vault unreachable')) }).toolkit;
    expect(await failing.call('get_card_credentials', { cardId: world.plainCard })).toMatchObject({
      ok: false,
      error: { code: 'internal_error', message: expect.stringContaining('vault unreachable') },
    });
  });
});

describe('errors', () => {
  it('call() never throws: bad input, unknown tools and unreachable APIs are results', async () => {
    const { toolkit } = toolkitWith();
    expect(await toolkit.call('check_spending_power', 'card_1')).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(await toolkit.call('check_spending_power', { cardId: 42 })).toMatchObject({
      ok: false,
      error: { code: 'invalid_input', details: { field: 'cardId' } },
    });
    expect(await toolkit.call('transfer_funds', {})).toMatchObject({ ok: false, error: { code: 'unknown_tool' } });
    const offline = createCardrailToolkit({
      apiKey: world.apiKey,
      baseUrl: 'http://127.0.0.1:9/v1',
      agentId: world.agentId,
      clientOptions: { maxRetries: 0, logLevel: 'off' },
    });
    expect(await offline.call('check_spending_power', { cardId: world.plainCard })).toMatchObject({
      ok: false,
      error: { code: 'connection_error' },
    });
  });

  it("run() throws a ToolError with the API's code, status, message and request id", async () => {
    const { toolkit } = toolkitWith();
    const error = await toolkit.run('get_intent', { intentId: 'int_missing' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ToolError);
    expect(error).toMatchObject({ code: 'not_found', status: 404, requestId: expect.stringMatching(/^req_/) });
  });
});

describe('configuration', () => {
  it('refuses an empty agent, an unknown exposure or variant, and a client together with client settings', () => {
    expect(() => createCardrailToolkit({ apiKey: world.apiKey, agentId: '' })).toThrow(/agentId/);
    expect(() => createCardrailToolkit({ apiKey: world.apiKey, agentId: world.agentId, cardId: ' ' })).toThrow(/cardId/);
    expect(() =>
      createCardrailToolkit({ apiKey: world.apiKey, agentId: world.agentId, credentialExposure: 'raw' as never }),
    ).toThrow(/credentialExposure/);
    expect(() => createCardrailToolkit({ apiKey: world.apiKey, agentId: world.agentId, variant: 'admin' as never })).toThrow(
      /variant/,
    );
    const client = new Cardrail({ apiKey: world.apiKey, baseUrl: world.baseUrl });
    expect(() => createCardrailToolkit({ client, apiKey: world.apiKey, agentId: world.agentId })).toThrow(
      /either client or apiKey/,
    );
  });

  it('uses a client passed in', async () => {
    const client = new Cardrail({ apiKey: world.apiKey, baseUrl: world.baseUrl });
    const toolkit = createCardrailToolkit({ client, agentId: world.agentId });
    expect(toolkit.variant).toBe('customer');
    expect(await toolkit.run('check_spending_power', { cardId: world.plainCard })).toMatchObject({ cardId: world.plainCard });
  });
});

describe('user variant', () => {
  it("calls the API with the Api-Key header, offers the user variant's schemas and keeps the same scope", async () => {
    const { toolkit, recorder } = toolkitWith({ variant: 'user' });
    expect(toolkit.variant).toBe('user');
    expect(toolkit.tools.map((tool) => tool.inputSchema)).toEqual(TOOL_NAMES.map((name) => userTools[name].inputSchema));
    expect(await toolkit.run('check_spending_power', { cardId: world.approvalCard })).toMatchObject({
      cardId: world.approvalCard,
    });
    expect(await toolkit.call('freeze_card', { cardId: world.otherAgentCard })).toMatchObject({
      ok: false,
      error: { code: 'out_of_scope' },
    });
    for (const request of recorder.sent) {
      expect(request.headers.get('api-key')).toBe(world.apiKey);
      expect(request.headers.has('authorization')).toBe(false);
    }
  });
});
