import { connectMock } from '@cardrail/mock-server/node';
import { expect, test } from '@playwright/test';
import { APP_API_KEY } from './global-setup.mjs';

/** @type {import('@cardrail/mock-server/node').RemoteMock} */
let mock;
let seeded;
let holder;

test.beforeAll(async () => {
  // The mock runs in its own process; connectMock drives it like the in-process test kit.
  mock = await connectMock(process.env.CARDRAIL_MOCK_URL, { token: process.env.CARDRAIL_CONTROL_TOKEN });
  // Seeded once through the app's own key: a funded customer with an active agent and a first card.
  holder = await mock.cardholder({ apiKey: APP_API_KEY, balance: 50_000 });
  seeded = await mock.snapshot();
});
test.beforeEach(async () => {
  await mock.restore(seeded);
});
test.afterAll(async () => {
  await mock?.close();
});

test('the app issues a card, recovering from a 503 on its first call, and its webhook arrives', async ({ page }) => {
  const inbox = await mock.webhookInbox({ apiKey: APP_API_KEY, events: ['card.created'] });
  // The app's first call to Cardrail (its agent lookup) answers 503 once; the SDK in the app retries it.
  const fault = await mock.faults.inject({ apiKey: APP_API_KEY, operation: 'getAgent', status: 503, retryAfter: 0, times: 1 });

  await page.goto(process.env.APP_URL);
  await page.getByLabel('Agent').fill(holder.agent.id);
  await page.getByRole('button', { name: 'Issue a card' }).click();
  await expect(page.getByRole('status')).toHaveText(/^Card issued: card_\w+ \(2 cards\)$/);

  const issued = (await page.getByRole('status').textContent()).match(/card_\w+/)[0];
  const event = await inbox.waitFor('card.created', (created) => created.data.cardId === issued, { timeoutMs: 15_000 });
  expect(event.data.agentId).toBe(holder.agent.id);
  expect(inbox.rejected).toEqual([]);
  // The fault was used by the app's first call, and only by it.
  expect(await fault.info()).toBeUndefined();
  expect(await mock.faults.list()).toEqual([]);
});

test('each test starts from the seed: the card of the test before is gone', async ({ page }) => {
  await page.goto(process.env.APP_URL);
  await page.getByLabel('Agent').fill(holder.agent.id);
  await page.getByRole('button', { name: 'Issue a card' }).click();
  await expect(page.getByRole('status')).toHaveText(/^Card issued: card_\w+ \(2 cards\)$/);
});

test('the app says so when Cardrail stays unavailable', async ({ page }) => {
  await mock.faults.inject({ apiKey: APP_API_KEY, operation: 'getAgent', status: 503, retryAfter: 0 });
  await page.goto(process.env.APP_URL);
  await page.getByLabel('Agent').fill(holder.agent.id);
  await page.getByRole('button', { name: 'Issue a card' }).click();
  await expect(page.getByRole('status')).toHaveText(/^Failed: /);
  const [fault] = await mock.faults.list();
  // The first attempt and the SDK's two retries.
  expect(fault?.hits).toBe(3);
});
