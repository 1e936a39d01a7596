// The MCP App approval card in Chromium, inside a small MCP Apps host (support/apps-host.ts: the extension's own host
// side, `AppBridge`, over postMessage, the card in a sandboxed iframe under a restrictive CSP), against cardrail-mcp
// over streamable HTTP (MCP 2026-07-28), with the mock behind it. A person approves and rejects from the card and the
// agent's waiting call (wait_for_approval) returns each decision; a decision on the dashboard shows in the card; a
// stale card shows the outcome and no buttons; a reason over the API's maximum is refused naming it; the model's own
// attempt to decide is refused and changes nothing; axe finds no serious or critical violation. The server's side of
// the same rules, call by call: mcp-apps-refusals.test.ts.
import { launchChromium } from '@cardrail/runtime-tests/browser';
import { type CallToolResult, Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import axe from 'axe-core';
import type { Browser, Frame } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WAITS } from '../../scripts/lib/test-waits.mjs';
import { createCardrailToolkit } from '../src/index.js';
import { type RunningMcpHttpServer, serveHttp } from '../src/mcp/node.js';
import { type AppsHost, type ShownCard, startAppsHost } from './support/apps-host.js';
import { startWorld, type World } from './support/world.js';

const HOST_NAME = 'Cardrail test host';
const RENDERS_APPS = { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } } };
const BY_THE_CARD = `by a person via the approval card in ${HOST_NAME}`;

let world: World;
let browser: Browser;
let server: RunningMcpHttpServer;
let client: Client;
let host: AppsHost;

beforeAll(async () => {
  [world, browser] = await Promise.all([startWorld(), launchChromium()]);
  const toolkit = createCardrailToolkit({ apiKey: world.apiKey, baseUrl: world.baseUrl, agentId: world.agentId });
  server = await serveHttp(toolkit, { port: 0 });
  client = new Client(
    { name: HOST_NAME, version: '1.0.0' },
    { capabilities: RENDERS_APPS, versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
  host = await startAppsHost(browser, client);
}, WAITS.test);

afterAll(async () => {
  await host?.close();
  await client?.close();
  await server?.close();
  await browser?.close();
  await world?.close();
});

const purchase = (summary: string) => ({
  cardId: world.approvalCard,
  summary,
  expectedAmount: 2_500,
  expectedMerchant: 'OpenAI',
});

/** The agent's call, as the model makes it; the host then shows its result in the card the tool links. */
async function declareAndShow(summary: string): Promise<{ intentId: string; card: ShownCard; result: CallToolResult }> {
  const args = purchase(summary);
  const result = (await client.callTool({ name: 'declare_intent', arguments: args })) as CallToolResult;
  const intentId = (result.structuredContent as { id: string }).id;
  const card = await host.show('declare_intent', args, result);
  await card.frame.getByRole('heading', { name: 'Approve this purchase?' }).waitFor();
  // The card has read what a person decides on (the agent's name is one of the facts it reads).
  await card.frame.getByText('Buyer', { exact: true }).waitFor();
  return { intentId, card, result };
}

/** The agent waiting for the person, as the model does after declare_intent. */
function agentWaits(intentId: string): Promise<CallToolResult> {
  return client.callTool(
    { name: 'wait_for_approval', arguments: { intentId, timeoutSeconds: 120 } },
    {
      timeout: WAITS.test,
    },
  ) as Promise<CallToolResult>;
}

/** The card's document as a frame of the page, for axe. */
function cardFrame(card: ShownCard): Frame {
  const frame = card.page.frames().find((candidate) => candidate !== card.page.mainFrame());
  if (frame === undefined) throw new Error('The host page has no card frame');
  return frame;
}

/** axe-core (WCAG 2.1 A and AA, best practices) in the card's frame: the violations of serious or critical impact. */
async function seriousViolations(frame: Frame) {
  await frame.evaluate(axe.source);
  return frame.evaluate(async () => {
    const results = await (window as unknown as { axe: typeof axe }).axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
    });
    return results.violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map((violation) => ({ id: violation.id, help: violation.help, targets: violation.nodes.map((node) => node.target) }));
  });
}

describe('the approval card in an MCP Apps host', () => {
  it('is linked from declare_intent; its tools are kept from the model', async () => {
    const names = (await host.modelTools()).map((tool) => tool.name);
    expect(names).toContain('declare_intent');
    expect(names).toContain('wait_for_approval');
    expect(names.filter((name) => name.startsWith('approval_card'))).toEqual([]);
  });

  it('shows the purchase with what a person decides on, and passes axe', async () => {
    const { intentId, card } = await declareAndShow('GPU credits for the demo');
    const fact = (label: string) => card.frame.locator('dt', { hasText: label }).locator('xpath=following-sibling::dd[1]');
    expect(await fact('Amount').textContent()).toContain('$25.00');
    expect(await fact('Amount').textContent()).toContain('A payment from $20.00 to $30.00 matches it');
    expect(await fact('Merchant').textContent()).toBe('OpenAI');
    expect(await fact('Owner').textContent()).toBe('ada@example.com');
    expect(await fact('Card').textContent()).toMatch(/^•••• \d{4}$/);
    expect(await fact('May still spend').textContent()).toMatch(/^no daily limit, no monthly limit; balance \$[\d,]+\.\d\d$/);
    expect(await fact('If paid now').textContent()).toContain("needs a person's approval");
    expect(await fact('Expires').textContent()).toMatch(/UTC$/);
    await card.frame.getByRole('button', { name: 'Approve' }).waitFor();
    await card.frame.getByLabel('Reason for rejection (optional)').waitFor();
    expect(await seriousViolations(cardFrame(card))).toEqual([]);
    // It told its host its size, which the host used for the frame.
    expect(await card.page.evaluate(() => window.cardSizes.length)).toBeGreaterThan(0);
    expect((await world.api.intents.retrieve(intentId)).status).toBe('pending_approval');
  });

  it('Approve: the intent is approved by the person in this host, and the agent’s waiting call returns it', async () => {
    const { intentId, card } = await declareAndShow('Approve me');
    const waiting = agentWaits(intentId);
    await card.frame.getByRole('button', { name: 'Approve' }).click();
    await card.frame.getByText(new RegExp(`^Approved .* ${BY_THE_CARD}\\. The agent may now pay\\.$`)).waitFor();
    await card.frame.getByRole('heading', { name: 'Purchase approved' }).waitFor();
    expect(await card.frame.getByRole('button').count()).toBe(0);
    const answer = await waiting;
    expect(answer.structuredContent).toMatchObject({
      id: intentId,
      status: 'pending',
      decidedBy: { name: null, via: `the approval card in ${HOST_NAME}` },
    });
    expect((answer.content as { text: string }[]).at(-1)?.text).toMatch(/is approved: you may call get_card_credentials/);
    // Every call the view made went through the host's visibility check; the model hears of the decision.
    expect(card.toolCalls.every((call) => call.allowed)).toBe(true);
    expect(card.toolCalls.map((call) => call.name)).toContain('approval_card_decide');
    await expect.poll(() => card.modelContext.join('\n'), { timeout: WAITS.ui }).toContain(`Intent ${intentId}: Approved`);
    expect(await seriousViolations(cardFrame(card))).toEqual([]);
  });

  it('Reject with a reason: the agent’s waiting call returns the rejection and the reason', async () => {
    const { intentId, card } = await declareAndShow('Reject me');
    const waiting = agentWaits(intentId);
    await card.frame.getByLabel('Reason for rejection (optional)').fill('Over this month’s budget');
    await card.frame.getByRole('button', { name: 'Reject' }).click();
    await card.frame.getByText(new RegExp(`^Rejected .* ${BY_THE_CARD}: Over this month’s budget$`)).waitFor();
    expect(await card.frame.getByRole('button').count()).toBe(0);
    const answer = await waiting;
    expect(answer.structuredContent).toMatchObject({ status: 'rejected', rejectionReason: 'Over this month’s budget' });
    expect((answer.content as { text: string }[]).at(-1)?.text).toMatch(
      /^A person rejected intent .*: Over this month’s budget\. Do not pay/,
    );
  });

  it('a reason over the API’s maximum is refused naming the maximum, and nothing is sent', async () => {
    const { intentId, card } = await declareAndShow('Too long a reason');
    await card.frame.getByLabel('Reason for rejection (optional)').fill('x'.repeat(501));
    await card.frame.getByRole('button', { name: 'Reject' }).click();
    await card.frame
      .getByRole('alert')
      .getByText('The reason is 501 characters long; the API takes at most 500.', { exact: true })
      .waitFor();
    expect(card.toolCalls.map((call) => call.name)).not.toContain('approval_card_decide');
    expect((await world.api.intents.retrieve(intentId)).status).toBe('pending_approval');
    await card.frame.getByRole('button', { name: 'Approve' }).waitFor();
  });

  it('a decision made on the dashboard shows in the card, with who made it', async () => {
    const { intentId, card } = await declareAndShow('Decided elsewhere');
    const key = (await world.api.apiKeys.create({ name: 'Ada Lovelace' })).key;
    const context = await browser.newContext();
    context.setDefaultTimeout(WAITS.ui);
    try {
      const page = await context.newPage();
      await page.goto(`${world.running.dashboardUrl}#/approvals/${intentId}`);
      await page.getByLabel('API key').fill(key);
      await page.getByRole('button', { name: 'Sign in' }).click();
      const decided = page.getByRole('region', { name: 'The purchase' });
      await decided.getByRole('button', { name: 'Approve' }).click();
      await decided.getByText(/^Approved .* by Ada Lovelace via the dashboard\./).waitFor();
    } finally {
      await context.close();
    }
    await card.frame.getByText(/^Approved .* by Ada Lovelace via the dashboard\. The agent may now pay\.$/).waitFor();
    expect(await card.frame.getByRole('button').count()).toBe(0);
  });

  it('the model cannot decide: its tools/call of the decision is refused and changes nothing', async () => {
    const { intentId, card, result } = await declareAndShow('The model tries');
    // What the model read of declare_intent: its text and structured content, never the card's capability.
    const seen = JSON.stringify({ content: result.content, structuredContent: result.structuredContent });
    expect(seen).not.toMatch(/dc1\./);
    for (const args of [
      { intentId, decision: 'approve' },
      { intentId, decision: 'approve', capability: `dc1.${intentId}.zzzzzzzz.AAAA` },
    ]) {
      const refused = (await client.callTool({ name: 'approval_card_decide', arguments: args })) as CallToolResult;
      expect(refused.isError).toBe(true);
      expect((refused.content as { text: string }[])[0]?.text).toMatch(/"code":"(invalid_input|capability_required)"/);
    }
    expect((await world.api.intents.retrieve(intentId)).status).toBe('pending_approval');
    // The card itself still can.
    await card.frame.getByRole('button', { name: 'Approve' }).click();
    await card.frame.getByRole('heading', { name: 'Purchase approved' }).waitFor();
  });

  it('a stale card (decided, or expired before anyone decided) shows the outcome and offers no buttons', async () => {
    const decidedArgs = purchase('Decided before it was shown');
    const decided = (await client.callTool({ name: 'declare_intent', arguments: decidedArgs })) as CallToolResult;
    const decidedId = (decided.structuredContent as { id: string }).id;
    await world.api.intents.reject(decidedId, { reason: 'Bought elsewhere', decidedBy: { name: 'Grace', via: 'the phone' } });
    const stale = await host.show('declare_intent', decidedArgs, decided);
    await stale.frame.getByText(/^Rejected .* by Grace via the phone: Bought elsewhere$/).waitFor();
    await stale.frame.getByRole('heading', { name: 'Purchase rejected' }).waitFor();
    expect(await stale.frame.getByRole('button').count()).toBe(0);

    const { intentId, card } = await declareAndShow('Nobody decides');
    // Past the intent's lifetime on the organization's test clock (the last test of the file: every intent expires).
    await world.api.simulate.clock.advance({ seconds: 2 * 3600 });
    await card.frame.getByText(/^Expired .*: there is nothing left to decide\.$/).waitFor();
    expect(await card.frame.getByRole('button').count()).toBe(0);
    expect((await world.api.intents.retrieve(intentId)).status).toBe('expired');
    expect(await seriousViolations(cardFrame(card))).toEqual([]);
  });
});
