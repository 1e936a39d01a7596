// A person's approval in the mock: every intent's approvalUrl (the approvalPage option, the Node server's dashboard
// page, null otherwise) and intent.pending_approval's.
import { Cardrail } from '@cardrail/sdk';
import { type RunningMockServer, startMockServer } from '../src/adapters/node.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
    const refused = await declare(client, card.id).catch((error: unknown) => error);
    expect(refused).toMatchObject({ status: 500, code: 'internal_error' });
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
