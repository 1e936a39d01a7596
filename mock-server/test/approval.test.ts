// A person's approval in the mock: every intent's approvalUrl (the approvalPage option, the Node server's dashboard
// page, null otherwise) and intent.pending_approval's; mock.approver() playing the person.
import { Cardrail } from '@cardrail/sdk';
import { type RunningMockServer, startMockServer } from '../src/adapters/node.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runCli } from '../src/cli/serve-command.js';
import { createMockServer } from '../src/index.js';

const declare = (client: ReturnType<ReturnType<typeof createMockServer>['client']>, cardId: string, summary = 'GPU credits') =>
  client.intents.create({ cardId, summary, expectedAmount: 2_500, expectedMerchant: 'OpenAI' });

describe('approvalUrl', () => {
  it('is null in-process, on the intent and on intent.pending_approval', async () => {
    const mock = createMockServer({ validateResponses: true });
    const client = mock.client();
    const { card } = await mock.cardholder({ client, card: { policy: { requireApproval: true } } });
    const intent = await declare(client, card.id);
    expect(intent).toMatchObject({ status: 'pending_approval', approvalUrl: null });
    const [event] = mock.events.list({ type: 'intent.pending_approval' });
    expect(event?.data).toMatchObject({ intentId: intent.id, approvalUrl: null });
  });

  it('names the page of the approvalPage option, a template or a function, in both variants', async () => {
    const templated = createMockServer({
      validateResponses: true,
      approvalPage: 'https://app.example/approvals/{intentId}?from=mock',
    });
    const users = templated.client({ variant: 'user' });
    const holder = await templated.cardholder({ client: users, card: { requireApproval: true } });
    const intent = await users.intents.create({ cardId: holder.card.id, summary: 'Hotel', expectedAmount: 9_000 });
    expect(intent.approvalUrl).toBe(`https://app.example/approvals/${intent.id}?from=mock`);
    expect(templated.events.list({ type: 'intent.pending_approval' })[0]?.data).toMatchObject({
      approvalUrl: intent.approvalUrl,
    });
    // The URL is the intent's: reading it again, listing it, approving it keep it.
    expect((await users.intents.retrieve(intent.id)).approvalUrl).toBe(intent.approvalUrl);
    expect((await users.intents.approve(intent.id)).approvalUrl).toBe(intent.approvalUrl);

    const computed = createMockServer({
      approvalPage: (intentId) => (intentId.endsWith('x') ? null : `https://approve.example/${intentId}`),
    });
    const client = computed.client();
    const { card } = await computed.cardholder({ client, card: { policy: { requireApproval: true } } });
    const second = await declare(client, card.id);
    expect(second.approvalUrl === null || second.approvalUrl === `https://approve.example/${second.id}`).toBe(true);
  });

  it('refuses an approvalPage that cannot name a page, when the mock is created', async () => {
    expect(() => createMockServer({ approvalPage: 'https://app.example/approvals' })).toThrow(/containing \{intentId\}/);
    expect(() => createMockServer({ approvalPage: 'not a url {intentId}' })).toThrow(/absolute http\(s\) URL/);
    expect(() => createMockServer({ approvalPage: 'file:///tmp/{intentId}' })).toThrow(/absolute http\(s\) URL/);
    // A function's answer is checked as each intent is declared: the mock's set-up is at fault, not the client, so
    // the declaration fails as a server error (logged with the option's message) and nothing is declared.
    const mock = createMockServer({ approvalPage: () => 'javascript:void 0' });
    const client = mock.client();
    const { card } = await mock.cardholder({ client, card: { policy: { requireApproval: true } } });
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const refused = await declare(client, card.id).catch((error: unknown) => error);
      expect(refused).toMatchObject({ status: 500, code: 'internal_error' });
      expect(String(logged.mock.calls[0]?.[1])).toMatch(
        /approvalPage must give an absolute http\(s\) URL .* "javascript:void 0"/,
      );
    } finally {
      logged.mockRestore();
    }
    expect(await client.intents.list().then((page) => page.data)).toEqual([]);
  });

  describe('on the Node server', () => {
    let running: RunningMockServer;
    let bare: RunningMockServer;
    beforeAll(async () => {
      [running, bare] = await Promise.all([startMockServer({ port: 0 }), startMockServer({ port: 0, dashboard: false })]);
    });
    afterAll(async () => {
      await Promise.all([running?.close(), bare?.close()]);
    });

    it("is the dashboard's page of the intent, on the port the server picked; null without the dashboard", async () => {
      const client = running.mock.client();
      const { card } = await running.mock.cardholder({ client, card: { policy: { requireApproval: true } } });
      const intent = await declare(client, card.id);
      expect(intent.approvalUrl).toBe(`${running.dashboardUrl}#/approvals/${intent.id}`);
      expect(new URL(intent.approvalUrl as string).port).toBe(String(running.port));

      const other = bare.mock.client();
      const holder = await bare.mock.cardholder({ client: other, card: { policy: { requireApproval: true } } });
      expect((await declare(other, holder.card.id)).approvalUrl).toBeNull();
    });
  });
});

describe('who decided (decidedBy)', () => {
  it('records the person and the place the request names, and the key it was made with, in both variants', async () => {
    const mock = createMockServer({ validateResponses: true });
    const owner = mock.client();
    const named = await owner.apiKeys.create({ name: 'Ada’s laptop' });
    const ada = mock.client({ apiKey: named.key });
    const { card } = await mock.cardholder({ client: owner, card: { policy: { requireApproval: true } } });
    const first = await declare(owner, card.id);
    expect(first.decidedBy).toBeNull();
    const approved = await ada.intents.approve(first.id, { decidedBy: { name: 'Ada Lovelace', via: 'the dashboard' } });
    expect(approved.decidedBy).toEqual({
      name: 'Ada Lovelace',
      via: 'the dashboard',
      apiKey: { id: named.id, name: 'Ada’s laptop', redactedKey: named.redactedKey },
    });
    expect((await owner.intents.retrieve(first.id)).decidedBy).toEqual(approved.decidedBy);

    // A decision that names nobody still says which key made it.
    const second = await declare(owner, card.id, 'Hotel');
    const rejected = await ada.intents.reject(second.id, { reason: 'Too dear' });
    expect(rejected.decidedBy).toEqual({ name: null, via: null, apiKey: approved.decidedBy?.apiKey });

    const users = mock.client({ variant: 'user' });
    const holder = await mock.cardholder({ client: users, card: { requireApproval: true } });
    const theirs = await users.intents.create({ cardId: holder.card.id, summary: 'Train', expectedAmount: 9_000 });
    const decided = await users.intents.reject(theirs.id, { decidedBy: { via: 'the approval card in Claude' } });
    expect(decided.decidedBy).toMatchObject({
      name: null,
      via: 'the approval card in Claude',
      apiKey: { id: expect.stringMatching(/^key_/) },
    });
  });

  it('refuses a decider the spec does not allow, and decides nothing', async () => {
    const mock = createMockServer({ validateResponses: true });
    const client = mock.client();
    const { card } = await mock.cardholder({ client, card: { policy: { requireApproval: true } } });
    const intent = await declare(client, card.id);
    for (const decidedBy of [{ name: 'x'.repeat(201) }, { name: '' }, { who: 'Ada' }]) {
      const refused = await client.intents
        .approve(intent.id, { decidedBy: decidedBy as { name: string } })
        .catch((error: unknown) => error);
      expect(refused).toMatchObject({ status: 400, code: 'invalid_request' });
    }
    expect((await client.intents.retrieve(intent.id)).status).toBe('pending_approval');
  });
});

describe('approvalUrl from the CLI', () => {
  const quiet = { out: () => {}, onSignal: () => {} };

  /** An intent waiting for approval, declared over HTTP as any client of the CLI's server would. */
  async function declaredOver(url: string) {
    const client = new Cardrail({ apiKey: 'sk_test_approvalcli01', baseUrl: url, maxRetries: 0 });
    const customer = await client.customers.create({ email: 'ada@example.com' });
    const agent = await client.agents.create({ customerId: customer.id, name: 'Buyer' });
    const card = await client.cards.create({ customerId: customer.id, agentId: agent.id, policy: { requireApproval: true } });
    return client.intents.create({ cardId: card.id, summary: 'GPU credits', expectedAmount: 2_500 });
  }

  it("names the dashboard's page of the intent, or the page --approval-page names", async () => {
    const [plain, proxied] = await Promise.all([
      runCli(['--port', '0'], quiet),
      runCli(['--port', '0', '--approval-page', 'https://mock.example.com/approve?intent={intentId}'], quiet),
    ]);
    try {
      const first = await declaredOver(plain?.running.url as string);
      expect(first.approvalUrl).toBe(`${plain?.running.dashboardUrl}#/approvals/${first.id}`);
      const second = await declaredOver(proxied?.running.url as string);
      expect(second.approvalUrl).toBe(`https://mock.example.com/approve?intent=${second.id}`);
    } finally {
      await Promise.all([plain?.running.close(), proxied?.running.close()]);
    }
  });

  it.each([
    'https://mock.example.com/approvals',
    '/approvals/{intentId}',
    'mock.example.com/{intentId}',
    'javascript:alert({intentId})',
  ])('refuses --approval-page %j, saying what it takes', async (page) => {
    await expect(runCli(['--port', '0', '--approval-page', page], quiet)).rejects.toThrow(
      `--approval-page must be an absolute http(s) URL containing {intentId}, such as https://mock.example.com/#/approvals/{intentId}, got ${page}`,
    );
  });
});

describe('mock.approver()', () => {
  it('approves the intents waiting and each new one of its organization, and no other organization’s', async () => {
    const mock = createMockServer();
    const client = mock.client();
    const { card } = await mock.cardholder({ client, card: { policy: { requireApproval: true } } });
    const before = await declare(client, card.id, 'Waiting before');
    const stranger = mock.client();
    const theirs = await mock.cardholder({ client: stranger, card: { policy: { requireApproval: true } } });

    const approver = mock.approver({ client, decide: 'approve' });
    const after = await declare(client, card.id, 'Declared after');
    const foreign = await declare(stranger, theirs.card.id, 'Not ours');
    await mock.idle();
    await approver.idle();

    expect((await client.intents.retrieve(before.id)).status).toBe('pending');
    expect((await client.intents.retrieve(after.id)).status).toBe('pending');
    expect((await stranger.intents.retrieve(foreign.id)).status).toBe('pending_approval');
    expect(approver.decided.map((answer) => [answer.intentId, answer.decision])).toEqual(
      expect.arrayContaining([
        [before.id, 'approve'],
        [after.id, 'approve'],
      ]),
    );
    expect(approver.decided).toHaveLength(2);
    expect(approver.errors).toEqual([]);
    approver.stop();
  });

  it('answers with a function of the intent: approve, reject with a reason, or leave it waiting', async () => {
    const mock = createMockServer();
    const client = mock.client({ variant: 'user' });
    const { card } = await mock.cardholder({ client, card: { requireApproval: true } });
    const approver = mock.approver({
      client,
      decide: async (intent) =>
        intent.expectedAmount <= 1_000 ? 'approve' : intent.summary === 'Ask me later' ? undefined : { reject: 'Over budget' },
    });
    const small = await client.intents.create({ cardId: card.id, summary: 'Coffee', expectedAmount: 900 });
    const large = await client.intents.create({ cardId: card.id, summary: 'Yacht', expectedAmount: 900_000 });
    const later = await client.intents.create({ cardId: card.id, summary: 'Ask me later', expectedAmount: 5_000 });
    await mock.idle();
    await approver.idle();
    expect((await client.intents.retrieve(small.id)).status).toBe('pending');
    expect(await client.intents.retrieve(large.id)).toMatchObject({ status: 'rejected', rejectionReason: 'Over budget' });
    expect((await client.intents.retrieve(later.id)).status).toBe('pending_approval');
    expect(approver.decided.find((answer) => answer.intentId === large.id)).toMatchObject({
      decision: 'reject',
      reason: 'Over budget',
    });
    approver.stop();
  });

  it('with delaySeconds, answers once the test clock has moved that far past the declaration', async () => {
    const mock = createMockServer({ frozenClock: '2026-11-21T12:00:00Z' });
    const client = mock.client();
    const { card } = await mock.cardholder({ client, card: { policy: { requireApproval: true } } });
    const approver = mock.approver({ client, decide: 'reject', delaySeconds: 300 });
    const intent = await declare(client, card.id);
    await mock.idle();
    expect((await client.intents.retrieve(intent.id)).status).toBe('pending_approval');
    await mock.clock.advance(299);
    expect((await client.intents.retrieve(intent.id)).status).toBe('pending_approval');
    await mock.clock.advance(1);
    await approver.idle();
    expect(await client.intents.retrieve(intent.id)).toMatchObject({
      status: 'rejected',
      rejectedAt: '2026-11-21T12:05:00.000Z',
    });
    approver.stop();
  });

  it('answers nothing once stopped, and says what it needs', async () => {
    const mock = createMockServer({ frozenClock: '2026-11-21T12:00:00Z' });
    const client = mock.client();
    const { card } = await mock.cardholder({ client, card: { policy: { requireApproval: true } } });
    const approver = mock.approver({ client, decide: 'approve', delaySeconds: 60 });
    const scheduled = await declare(client, card.id);
    approver.stop();
    const unseen = await declare(client, card.id, 'After stop');
    await mock.clock.advance(120);
    await approver.idle();
    expect((await client.intents.retrieve(scheduled.id)).status).toBe('pending_approval');
    expect((await client.intents.retrieve(unseen.id)).status).toBe('pending_approval');
    expect(approver.decided).toEqual([]);

    expect(() => mock.approver({ client: {} as never, decide: 'approve' })).toThrow(/needs a client of this mock/);
    expect(() => mock.approver({ client, decide: 'maybe' as never })).toThrow(/decide must be/);
    expect(() => mock.approver({ client, decide: 'approve', delaySeconds: -1 })).toThrow(/delaySeconds/);
  });

  it('an intent decided elsewhere meanwhile is left as it is', async () => {
    const mock = createMockServer({ frozenClock: '2026-11-21T12:00:00Z' });
    const client = mock.client();
    const { card } = await mock.cardholder({ client, card: { policy: { requireApproval: true } } });
    const approver = mock.approver({ client, decide: 'approve', delaySeconds: 10 });
    const intent = await declare(client, card.id);
    await client.intents.reject(intent.id, { reason: 'The person was quicker' });
    await mock.clock.advance(10);
    await approver.idle();
    expect((await client.intents.retrieve(intent.id)).status).toBe('rejected');
    expect(approver.decided).toEqual([]);
    expect(approver.errors).toEqual([]);
    approver.stop();
  });
});
