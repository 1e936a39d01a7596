// Scripted agent runs (a) and (b) over MCP stdio, through the built bin (what `npx cardrail-mcp` runs), no model: the
// test plays the agent's client and the person.
// (a) A client that declares URL elicitation: declare_intent -> the client receives the intent's approval page -> a
//     person opens it in Chromium, signs in and presses Approve -> declare_intent answers the approved intent ->
//     get_card_credentials -> the payment (/simulate/authorize) -> intent.matched, signed, on a webhook.
// (b) A client without elicitation: declare_intent answers the link and the wait step -> wait_for_approval while
//     mock.approver plays the person -> credentials -> payment -> intent.matched on the webhook.
// (c) An MCP 2026-07-28 client (server/discover, then stateless requests) with URL elicitation: declare_intent answers
//     input_required with the approval page -> the client shows it, mock.approver plays the person -> the client's
//     retry answers the approved intent -> credentials -> payment -> intent.matched.
import type { Readable } from 'node:stream';
import { launchChromium } from '@cardrail/runtime-tests/browser';
import { constructEvent } from '@cardrail/sdk/webhooks';
import { Client, type ClientCapabilities } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, BIN } from './support/bin.js';
import { startReceiver, type WebhookReceiver } from './support/receiver.js';
import { mcpCaller, type ToolCaller } from './support/tool-caller.js';
import { startWorld, type World } from './support/world.js';

/** Generous, for a loaded two-core machine: each wait ends as soon as what it waits for happens. */
const WAIT_MS = 60_000;

let world: World;
let browser: Browser;
let receiver: WebhookReceiver;
let webhookSecret: string;
const clients: Client[] = [];

beforeAll(async () => {
  assertBuilt();
  [world, browser, receiver] = await Promise.all([startWorld(), launchChromium(), startReceiver()]);
  const webhook = await world.api.webhooks.create({ url: receiver.url, events: ['intent.matched'] });
  webhookSecret = webhook.secret;
});

afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
  await browser?.close();
  await receiver?.close();
  await world?.close();
});

/** `cardrail-mcp` for the world's agent over stdio, and a client with these capabilities (MCP 2025-11-25 unless
 * `modern`: then the client probes with server/discover and speaks 2026-07-28). */
async function stdioClient(capabilities: ClientCapabilities, modern = false): Promise<{ client: Client; call: ToolCaller }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, '--agent', world.agentId, '--base-url', world.baseUrl],
    env: { CARDRAIL_API_KEY: world.apiKey },
    stderr: 'pipe',
  });
  (transport.stderr as Readable).resume();
  const client = new Client(
    { name: 'scripted-agent', version: '0.0.0' },
    { capabilities, ...(modern ? { versionNegotiation: { mode: 'auto' as const } } : {}) },
  );
  await client.connect(transport);
  expect(client.getProtocolEra()).toBe(modern ? 'modern' : 'legacy');
  clients.push(client);
  return { client, call: mcpCaller(client) };
}

/** The person: opens the approval page in a fresh browser, signs in with a key of the organization, approves. */
async function approveInBrowser(url: string): Promise<void> {
  const key = (await world.api.apiKeys.create({ name: 'approver' })).key;
  const context = await browser.newContext();
  context.setDefaultTimeout(WAIT_MS);
  try {
    const page = await context.newPage();
    await page.goto(url);
    await page.getByLabel('API key').fill(key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    const purchase = page.getByRole('region', { name: 'The purchase' });
    await purchase.getByText('$25.00', { exact: true }).waitFor();
    await purchase.getByRole('button', { name: 'Approve' }).click();
    await purchase.getByText(/^Approved .* The agent may now pay\.$/).waitFor();
  } finally {
    await context.close();
  }
}

/** Pays like the merchant would, and waits for the signed `intent.matched` of this intent on the webhook. */
async function payAndAwaitMatch(intentId: string): Promise<void> {
  const payment = await world.api.simulate.authorize({
    cardId: world.approvalCard,
    amount: 2_500,
    merchant: { name: 'OpenAI', mcc: '5734' },
  });
  expect(payment.status).toBe('pending');
  await world.running.mock.idle();
  const events = await Promise.all(
    receiver.deliveries.map((delivery) =>
      constructEvent({ payload: delivery.body, header: delivery.signature, secret: webhookSecret }),
    ),
  );
  const matched = events.find((event) => event.type === 'intent.matched' && event.data.intentId === intentId);
  expect(matched?.data).toMatchObject({ intentId, transactionId: payment.id, actualAmount: 2_500, cardId: world.approvalCard });
}

const purchase = (summary: string) => ({
  cardId: world.approvalCard,
  summary,
  expectedAmount: 2_500,
  expectedMerchant: 'OpenAI',
});

describe('scripted agent runs over MCP stdio', () => {
  it('(a) a client with URL elicitation shows the approval page; a person approves it in Chromium; the agent pays', async () => {
    const shown: string[] = [];
    let person: Promise<void> | undefined;
    const { client, call } = await stdioClient({ elicitation: { url: {} } });
    client.setRequestHandler('elicitation/create', async (request) => {
      const { url } = request.params as { url: string };
      shown.push(url);
      // The client shows the link; the person opens it (after the client said so) and decides there.
      person = approveInBrowser(url);
      return { action: 'accept' };
    });

    const declared = await call('declare_intent', purchase('GPU credits, approved in the browser'));
    await person;
    expect(declared.isError).toBe(false);
    expect(declared.payload).toMatchObject({ status: 'pending', approvedBy: 'api' });
    expect(shown).toEqual([declared.payload.approvalUrl]);
    expect(declared.payload.approvalUrl).toBe(`${world.running.dashboardUrl}#/approvals/${declared.payload.id}`);
    expect(declared.said.at(-1)).toMatch(/is approved: you may call get_card_credentials/);

    const credentials = await call('get_card_credentials', { cardId: world.approvalCard, intentId: declared.payload.id });
    expect(credentials.payload).toMatchObject({
      cardId: world.approvalCard,
      exposure: 'masked',
      last4: expect.stringMatching(/^\d{4}$/),
    });
    await payAndAwaitMatch(declared.payload.id);
  });

  it('(b) a client without elicitation waits with wait_for_approval while mock.approver plays the person', async () => {
    const { call } = await stdioClient({});
    const approver = world.running.mock.approver({ client: world.api, decide: 'approve' });
    try {
      const declared = await call('declare_intent', purchase('GPU credits, approved by the test kit'));
      // Declared waiting; the answer gives the model the link and the next step.
      expect(declared.payload.status).toMatch(/^pending/);
      const waited = await call('wait_for_approval', { intentId: declared.payload.id, timeoutSeconds: 60 });
      expect(waited.payload).toMatchObject({ id: declared.payload.id, status: 'pending', approvedBy: 'api' });
      expect(approver.decided).toContainEqual(expect.objectContaining({ intentId: declared.payload.id, decision: 'approve' }));

      const credentials = await call('get_card_credentials', { cardId: world.approvalCard, intentId: declared.payload.id });
      expect(credentials.isError).toBe(false);
      await payAndAwaitMatch(declared.payload.id);
    } finally {
      approver.stop();
    }
  });

  it('(c) a 2026-07-28 client shows the page from input_required; the person approves; its retry gets the decision', async () => {
    const shown: { url: string; elicitationId?: string }[] = [];
    const { client, call } = await stdioClient({ elicitation: { url: {} } }, true);
    let approver: ReturnType<typeof world.running.mock.approver> | undefined;
    client.setRequestHandler('elicitation/create', async (request) => {
      shown.push(request.params as { url: string; elicitationId?: string });
      // The person, reached through the page the client showed, approves.
      approver = world.running.mock.approver({ client: world.api, decide: 'approve' });
      return { action: 'accept' };
    });
    try {
      const declared = await call('declare_intent', purchase('GPU credits, asked for on the 2026 wire'));
      expect(declared.payload).toMatchObject({ status: 'pending', approvedBy: 'api' });
      expect(shown).toEqual([expect.objectContaining({ url: declared.payload.approvalUrl })]);
      expect(shown[0]).not.toHaveProperty('elicitationId');
      expect(declared.said).toEqual([
        'The person was shown the approval page in the client.',
        expect.stringMatching(/is approved: you may call get_card_credentials/),
      ]);
      const credentials = await call('get_card_credentials', { cardId: world.approvalCard, intentId: declared.payload.id });
      expect(credentials.isError).toBe(false);
      await payAndAwaitMatch(declared.payload.id);
    } finally {
      approver?.stop();
    }
  });
});
