// Takes the README's screenshots of the dashboard: `npm run screenshots --workspace=@cardrail/dashboard` after a
// build. A seeded mock on a frozen clock gives the same ids and times on every run, so a picture changes only when
// the page does. Written to mock-server/docs/dashboard/.
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startMockServer } from '@cardrail/mock-server/node';
import { Cardrail } from '@cardrail/sdk';
import { launchChromium } from '@cardrail/runtime-tests/browser';
import { DESKTOP, openDashboard, openView, PHONE, row, settled, signIn } from '../test/support/dashboard.js';

const out = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'mock-server', 'docs', 'dashboard');
const apiKey = 'sk_test_screenshots01';

const running = await startMockServer({ port: 0, seed: 'screenshots', frozenClock: '2026-11-21T12:00:00.000Z' });
const browser = await launchChromium();
try {
  const cardrail = new Cardrail({ apiKey, baseUrl: running.url });
  const ada = await cardrail.customers.create({ email: 'ada@example.com', name: { first: 'Ada', last: 'Lovelace' } });
  await cardrail.simulate.deposit({ customerId: ada.id, amount: 500_000 });
  const booker = await cardrail.agents.create({
    customerId: ada.id,
    name: 'Travel booker',
    limits: { amount: 200_000, currency: 'usd', interval: 'monthly' },
  });
  const card = await cardrail.cards.create({
    customerId: ada.id,
    agentId: booker.id,
    policy: { requireApproval: true, cooldownMinutes: 5, limits: { perAuth: 50_000, perDay: 100_000 }, ttlDays: 30 },
  });
  await cardrail.webhooks.create({ url: 'http://127.0.0.1:9/hooks/cardrail', events: ['*'], description: 'Ops alerts' });
  await cardrail.simulate.authorize({ cardId: card.id, amount: 12_900, merchant: { name: 'Hotel Lisboa', mcc: '7011' } });
  const flight = await cardrail.intents.create({
    cardId: card.id,
    summary: 'Flight to Lisbon',
    expectedAmount: 32_000,
    expectedMerchant: 'TAP Air',
  });
  await cardrail.intents.create({ cardId: card.id, summary: 'Airport taxi', expectedAmount: 4_500 });
  const grace = await cardrail.customers.create({ email: 'grace@example.com', name: { first: 'Grace', last: 'Hopper' } });
  await cardrail.simulate.deposit({ customerId: grace.id, amount: 20_000 });
  const buyer = await cardrail.agents.create({ customerId: grace.id, name: 'GPU buyer' });
  const gpuCard = await cardrail.cards.create({ customerId: grace.id, agentId: buyer.id });
  await cardrail.simulate.authorize({ cardId: gpuCard.id, amount: 2_500, merchant: { name: 'OpenAI', mcc: '5734' } });
  await cardrail.simulate.authorize({ cardId: gpuCard.id, amount: 90_000, merchant: { name: 'GPU Cloud' } });

  mkdirSync(out, { recursive: true });
  const shots: string[] = [];
  const shoot = async (page: import('playwright-core').Page, name: string) => {
    await settled(page);
    await page.screenshot({ path: join(out, `${name}.png`) });
    shots.push(`${name}.png`);
  };

  if (!running.dashboardUrl) throw new Error('no dashboard');
  const desktop = await openDashboard(browser, running.dashboardUrl, DESKTOP);
  await desktop.page.getByLabel('API key').waitFor();
  await shoot(desktop.page, 'sign-in');
  await signIn(desktop.page, apiKey);
  await desktop.page.getByText('Total').waitFor();
  await shoot(desktop.page, 'overview');
  await openView(desktop.page, /^Approvals/, 'Approvals');
  await shoot(desktop.page, 'approvals');
  await desktop.page.goto(`${running.dashboardUrl}#/approvals/${flight.id}`);
  await desktop.page.getByRole('heading', { level: 1, name: 'Approve a purchase: Flight to Lisbon' }).waitFor();
  await desktop.page
    .getByRole('region', { name: /^Recent spends/ })
    .getByText('Hotel Lisboa')
    .waitFor();
  await shoot(desktop.page, 'approval');
  await openView(desktop.page, 'Cards');
  await row(desktop.page, card.id)
    .getByRole('button', { name: /^Policy/ })
    .click();
  await desktop.page
    .getByRole('region', { name: /Live policy of card/ })
    .getByText('spent of')
    .first()
    .waitFor();
  await shoot(desktop.page, 'cards');
  await openView(desktop.page, 'Transactions');
  await shoot(desktop.page, 'transactions');
  await openView(desktop.page, 'Events');
  await desktop.page.locator('details summary').first().click();
  await shoot(desktop.page, 'events');
  const phone = await openDashboard(browser, running.dashboardUrl, PHONE);
  await signIn(phone.page, apiKey);
  await openView(phone.page, /^Approvals/, 'Approvals');
  await shoot(phone.page, 'approvals-phone');
  await phone.close();

  // Last: the hour it advances lets both intents expire.
  await openView(desktop.page, 'Test clock');
  await desktop.page.getByRole('button', { name: '+1 hour' }).click();
  await desktop.page.getByRole('region', { name: 'What ran during the last advance' }).waitFor();
  // The navigation's count of waiting intents follows on the next poll.
  await desktop.page.locator('nav .count').waitFor({ state: 'detached' });
  await shoot(desktop.page, 'clock');
  await desktop.close();
  process.stdout.write(`screenshots: ${shots.join(', ')} in ${out}\n`);
} finally {
  await browser.close();
  await running.close();
}
