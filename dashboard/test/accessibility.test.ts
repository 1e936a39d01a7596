// Every view of the dashboard, filled with data and with its panels open, checked by axe-core (no serious or critical
// violation of WCAG 2.1 A/AA or axe's best practices) at 1280x800 and at a phone's width, where no page may make a
// person scroll sideways (wide tables scroll inside their own region).
import { type RunningMockServer, startMockServer } from '@cardrail/mock-server/node';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '@cardrail/runtime-tests/browser';
import {
  DESKTOP,
  openDashboard,
  openView,
  overflowsSideways,
  PHONE,
  row,
  seriousViolations,
  settled,
  signIn,
  VIEWS,
} from './support/dashboard.js';

let running: RunningMockServer;
let browser: Browser;
let apiKey: string;
let cardId: string;
let intentId: string;
let webhookUrl: string;

beforeAll(async () => {
  [running, browser] = await Promise.all([startMockServer({ port: 0 }), launchChromium()]);
  const client = running.mock.client();
  await running.mock.webhookInbox({ client });
  // Nothing listens on the discard port of loopback: its deliveries fail, so the view shows a retry.
  webhookUrl = 'http://127.0.0.1:9/cardrail';
  await client.webhooks.create({ url: webhookUrl, events: ['card.frozen'], description: 'Unreachable' });
  const { owner, card } = await running.mock.cardholder({
    client,
    email: 'ada@example.com',
    card: { policy: { requireApproval: true, cooldownMinutes: 5, limits: { perDay: 50_000 } } },
  });
  cardId = card.id;
  intentId = (
    await client.intents.create({ cardId: card.id, summary: 'GPU credits', expectedAmount: 2_000, expectedMerchant: 'OpenAI' })
  ).id;
  await client.simulate.authorize({ cardId: card.id, amount: 2_500, merchant: { name: 'OpenAI', mcc: '5734' } });
  await client.agents.create({ customerId: owner.id, name: 'Suspended bot' }).then((agent) => client.agents.suspend(agent.id));
  const second = await running.mock.cardholder({ client, email: 'grace@example.com' });
  await client.cards.freeze(second.card.id);
  await client.simulate.authorize({ cardId: second.card.id, amount: 1_000, merchant: { name: 'Frozen merchant' } });
  apiKey = (await client.apiKeys.create({ name: 'dashboard' })).key;
});

afterAll(async () => {
  await browser?.close();
  await running?.close();
});

/** Opens what a view hides until asked: a panel, a payload, a result, a secret shown once. */
const expanders: Record<string, (page: Page) => Promise<void>> = {
  Cards: async (page) => {
    await row(page, cardId)
      .getByRole('button', { name: /^Policy/ })
      .click();
    await page
      .getByRole('region', { name: /Live policy of card/ })
      .getByText('spent of')
      .first()
      .waitFor();
  },
  Events: async (page) => {
    await page.locator('details summary').first().click();
    await page.locator('details[open] pre').waitFor();
  },
  Webhooks: async (page) => {
    await row(page, webhookUrl)
      .getByRole('button', { name: /^Deliveries/ })
      .click();
    await page
      .getByRole('region', { name: /Deliveries to/ })
      .getByRole('button', { name: /^Retry/ })
      .first()
      .waitFor();
  },
  'Test clock': async (page) => {
    await page.getByRole('button', { name: '+5 minutes' }).click();
    await page.getByRole('region', { name: 'What ran during the last advance' }).waitFor();
  },
  'API keys': async (page) => {
    await page.getByLabel('Name (optional)').fill('Accessibility check');
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByRole('region', { name: /New test key/ }).waitFor();
  },
};

describe.each([
  ['1280x800', DESKTOP],
  ['a phone (390x844)', PHONE],
])('at %s', (_name, viewport) => {
  it('every view has no serious or critical accessibility violation, and no sideways scrolling', async () => {
    if (!running.dashboardUrl) throw new Error('startMockServer() serves no dashboard');
    const dashboard = await openDashboard(browser, running.dashboardUrl, viewport);
    const { page } = dashboard;
    const found: Record<string, unknown> = {};
    try {
      await page.getByLabel('API key').waitFor();
      found['Sign in'] = await seriousViolations(page);
      expect(await overflowsSideways(page), 'Sign in scrolls sideways').toBe(false);
      await signIn(page, apiKey);
      for (const [link, heading] of VIEWS) {
        await openView(page, link, heading);
        await settled(page);
        await expanders[heading]?.(page);
        found[heading] = await seriousViolations(page);
        expect(await overflowsSideways(page), `${heading} scrolls sideways`).toBe(false);
      }
      // An intent's own page (its approvalUrl), waiting for an answer.
      await page.goto(`${running.dashboardUrl}#/approvals/${intentId}`);
      await page.getByRole('heading', { level: 1, name: 'Approve a purchase: GPU credits' }).waitFor();
      await page.getByRole('button', { name: 'Approve' }).waitFor();
      await settled(page);
      found['Approval page'] = await seriousViolations(page);
      expect(await overflowsSideways(page), 'The approval page scrolls sideways').toBe(false);
      expect(found).toEqual(Object.fromEntries(Object.keys(found).map((view) => [view, []])));
      expect(dashboard.errors).toEqual([]);
    } finally {
      await dashboard.close();
    }
  });
});
