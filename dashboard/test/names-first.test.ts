// The dashboard as a first-time person reads it, in a real Chromium against the mock's Node server: objects by their
// names (an agent by its name, an owner by name or email, a card by its last four digits), each id beside its name on
// one line and copied whole by its button; a risk flag saying what it means; the sign-in form's label and errors as
// they should read. Every wait is for something the page shows.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openView, PHONE, row, settled, signIn } from './support/dashboard.js';
import { dashboardSuite } from './support/suite.js';

const { server, open } = dashboardSuite();

/** How many lines each id of the main content takes: one, or it was wrapped mid-id. */
function linesPerId(page: Page): Promise<number[]> {
  return page.evaluate(() => [...document.querySelectorAll('main code.id')].map((id) => id.getClientRects().length));
}

describe('names before ids', () => {
  it('shows agents, owners and cards by name, each id under its name on one line, copied by its button', async () => {
    const client = server().mock.client();
    const { owner, agent, card } = await server().mock.cardholder({
      client,
      email: 'grace@example.com',
      agent: { name: 'Research buyer' },
    });
    await client.customers.update(owner.id, { name: { first: 'Grace', last: 'Hopper' } });
    const { page, context } = await open(PHONE);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(server().url).origin });
    await signIn(page, (await client.apiKeys.create({ name: 'dashboard' })).key);

    await openView(page, 'Agents');
    const agentRow = row(page, agent.id);
    await agentRow.getByRole('rowheader', { name: /Research buyer/ }).waitFor();
    await agentRow.getByRole('cell').filter({ hasText: 'Grace Hopper' }).filter({ hasText: owner.id }).waitFor();

    await openView(page, 'Cards');
    const cardRow = row(page, card.id);
    await cardRow.getByRole('rowheader', { name: new RegExp(`•••• ${card.last4}`) }).waitFor();
    await cardRow.getByRole('cell').filter({ hasText: 'Research buyer' }).filter({ hasText: agent.id }).waitFor();
    await cardRow.getByRole('cell').filter({ hasText: 'Grace Hopper' }).filter({ hasText: owner.id }).waitFor();
    await settled(page);
    // On a phone the table scrolls sideways rather than breaking an id over lines.
    const lines = await linesPerId(page);
    expect(lines.length).toBeGreaterThanOrEqual(3);
    expect(lines.every((count) => count === 1)).toBe(true);

    await cardRow.getByRole('button', { name: `Copy ${agent.id}` }).click();
    await cardRow.getByRole('button', { name: `Copied ${agent.id}` }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(agent.id);

    await openView(page, 'Customers');
    await row(page, owner.id)
      .getByRole('rowheader', { name: /Grace Hopper/ })
      .getByText('grace@example.com')
      .waitFor();
  });

  it('names the card and its agent in Transactions, and says what a risk flag means', async () => {
    const client = server().mock.client();
    const { card } = await server().mock.cardholder({ client, agent: { name: 'Cloud buyer' } });
    // No credential fetch before the spend: the transaction is unattested.
    await client.simulate.authorize({ cardId: card.id, amount: 2_500, merchant: { name: 'OpenAI' } });
    const { page } = await open();
    await signIn(page, (await client.apiKeys.create({ name: 'dashboard' })).key);
    await openView(page, 'Transactions');

    const spend = row(page, 'OpenAI');
    await spend
      .getByRole('cell')
      .filter({ hasText: `•••• ${card.last4}` })
      .filter({ hasText: 'Cloud buyer' })
      .waitFor();
    await spend.getByText('unattested', { exact: true }).waitFor();
    await spend.getByText(/no credential fetch by the agent just before it/).waitFor();
    expect(await page.getByLabel('Card').locator('option').first().textContent()).toBe(`•••• ${card.last4} · Cloud buyer`);
  });
});

describe('the sign-in form', () => {
  it('reads "Api-Key header", and "Use a new test key" clears an error about the key it replaces', async () => {
    const { page } = await open();
    await page.getByText(/User variant/).waitFor();
    expect(await page.getByText(/User variant/).innerText()).toBe('User variant (Api-Key header, users)');

    await page.getByLabel('API key').fill('not-a-key');
    await page.getByRole('button', { name: 'Sign in' }).click();
    const formatError = page.getByRole('alert').filter({ hasText: 'starts with sk_test_ or sk_live_' });
    await formatError.waitFor();
    await page.getByRole('button', { name: 'Use a new test key' }).click();
    await page.getByRole('status').filter({ hasText: 'The field now holds a new test key' }).waitFor();
    await formatError.waitFor({ state: 'detached' });
    expect(await page.getByLabel('API key').inputValue()).toMatch(/^sk_test_\w{24}$/);
  });
});
