// The dashboard in a real Chromium, served by the mock's Node server (startMockServer() from the built package, the
// files it ships): a person signs in, sees what their code created through the SDK, answers intents, freezes a card,
// moves the test clock; the API and a webhook confirm each action; another organization's objects stay out of sight.
// Every wait is for something the page shows; nothing sleeps for a fixed time.
import type { Cardrail, CardrailUsers } from '@cardrail/sdk';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { OBJECT_VIEWS, openView, row, settled, signIn, UI_TIMEOUT_MS } from './support/dashboard.js';
import { dashboardSuite } from './support/suite.js';

const { server, open, openAt } = dashboardSuite();

/** A key of the client's organization for the person at the dashboard, made through the API like any other. */
async function keyFor(client: Cardrail | CardrailUsers, name = 'dashboard'): Promise<string> {
  return (await client.apiKeys.create({ name })).key;
}

/** A fresh page, signed in with a new key of the client's organization. */
async function signedIn(client: Cardrail | CardrailUsers, variant?: 'customer' | 'user'): Promise<Page> {
  const { page } = await open();
  await signIn(page, await keyFor(client), variant);
  return page;
}

describe('signing in', () => {
  it('keeps the key in the tab only, and shows what the SDK created, updating as objects arrive', async () => {
    const client = server().mock.client();
    const { owner, agent, card } = await server().mock.cardholder({ client, email: 'ada@example.com' });
    const key = await keyFor(client);
    const { page, context } = await open();

    await page.getByRole('heading', { level: 1, name: 'Cardrail mock dashboard' }).waitFor();
    await signIn(page, key);
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
    expect(page.url()).not.toContain(key);
    expect(page.url()).not.toContain(key.slice(8));
    const storage = await page.evaluate(() => ({
      session: JSON.stringify(Object.entries(sessionStorage)),
      local: localStorage.length,
      cookie: document.cookie,
    }));
    expect(storage.session).toContain(key);
    expect(storage.local).toBe(0);
    expect(storage.cookie).toBe('');
    expect(await context.cookies()).toEqual([]);

    await row(page, 'ada@example.com').waitFor();
    await openView(page, 'Customers');
    await row(page, owner.id).waitFor();
    await openView(page, 'Cards');
    await row(page, card.id).getByText('active').waitFor();
    await openView(page, 'Agents');
    await row(page, agent.id).waitFor();

    // Created by code while the page is open: it shows up without a reload.
    const late = await client.agents.create({ customerId: owner.id, name: 'Late arrival' });
    await row(page, late.id).getByRole('rowheader', { name: 'Late arrival' }).waitFor();

    // A reload keeps the tab signed in; another browser context (another tab's session storage) is not.
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Agents' }).waitFor();
    const other = await open();
    await other.page.getByLabel('API key').waitFor();

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('API key').waitFor();
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
  });

  it('refuses a malformed key before sending it, and a revoked key with the API answer', async () => {
    const client = server().mock.client();
    const created = await client.apiKeys.create({ name: 'to revoke' });
    await client.apiKeys.revoke(created.id);
    const { page, requests } = await open();

    await page.getByLabel('API key').fill('not-a-key');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: 'starts with sk_test_ or sk_live_' }).waitFor();
    expect(requests.some((url) => url.includes('/v1/'))).toBe(false);

    await page.getByLabel('API key').fill(created.key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: '401' }).waitFor();
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
  });
});

describe('acting through the page', () => {
  it('approves one intent and rejects another; the API and a webhook see both answers', async () => {
    const client = server().mock.client();
    const inbox = await server().mock.webhookInbox({ client, events: ['intent.approved', 'intent.rejected'] });
    const { card, agent } = await server().mock.cardholder({ client, card: { policy: { requireApproval: true } } });
    const page = await signedIn(client);
    await openView(page, /^Approvals/, 'Approvals');
    await page.getByText('Nothing is waiting.').waitFor();

    // Declared by the agent's code while the person watches: both arrive on the open page.
    const gpu = await client.intents.create({ cardId: card.id, summary: 'GPU credits', expectedAmount: 2_000 });
    const yacht = await client.intents.create({ cardId: card.id, summary: 'Yacht rental', expectedAmount: 9_000 });
    const waiting = page.getByRole('region', { name: /Waiting for approval/ });
    const gpuCard = waiting.getByRole('article', { name: /GPU credits/ });
    const yachtCard = waiting.getByRole('article', { name: /Yacht rental/ });
    await gpuCard.waitFor();
    await yachtCard.waitFor();
    // The agent by the name its owner gave it, its id under the name.
    await gpuCard.getByRole('definition').filter({ hasText: agent.name }).filter({ hasText: agent.id }).waitFor();

    await gpuCard.getByRole('button', { name: 'Approve' }).click();
    await gpuCard.waitFor({ state: 'detached' });
    await yachtCard.getByLabel('Reason for rejection').fill('Not in this month’s budget');
    await yachtCard.getByRole('button', { name: 'Reject' }).click();
    await yachtCard.waitFor({ state: 'detached' });
    await page.getByText('Nothing is waiting.').waitFor();
    await row(page, 'Not in this month’s budget').waitFor();

    const approved = await client.intents.retrieve(gpu.id);
    expect(approved.status).toBe('pending');
    expect(approved.approvedAt).not.toBeNull();
    const rejected = await client.intents.retrieve(yacht.id);
    expect(rejected.status).toBe('rejected');
    expect(rejected.rejectionReason).toBe('Not in this month’s budget');

    const approvedEvent = await inbox.waitFor('intent.approved', (event) => event.data.intentId === gpu.id, {
      timeoutMs: UI_TIMEOUT_MS,
    });
    expect(approvedEvent.data.status).toBe('pending');
    const rejectedEvent = await inbox.waitFor('intent.rejected', (event) => event.data.intentId === yacht.id, {
      timeoutMs: UI_TIMEOUT_MS,
    });
    expect(rejectedEvent.data.rejectionReason).toBe('Not in this month’s budget');
    expect(inbox.rejected).toEqual([]);
  });

  it('freezes a card with the keyboard alone, with a visible focus, and shows its live policy', async () => {
    const client = server().mock.client();
    const { card } = await server().mock.cardholder({
      client,
      card: { policy: { cooldownMinutes: 5, limits: { perDay: 20_000 } } },
    });
    await client.simulate.authorize({ cardId: card.id, amount: 2_500, merchant: { name: 'OpenAI' } });
    const page = await signedIn(client);

    // Tab to the Cards link and follow it: the view's heading takes the focus.
    await tabTo(page, (focused) => focused.tag === 'A' && focused.text === 'Cards');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Cards' }).waitFor();
    await page.waitForFunction(() => document.activeElement?.tagName === 'H1');

    await row(page, card.id)
      .getByRole('button', { name: /^Policy/ })
      .click();
    const policy = page.getByRole('region', { name: /Live policy of card/ });
    await policy.getByText('$25.00 spent of $200.00, $175.00 remaining').waitFor();
    await policy.getByText(/5 min between spends; in cooldown until/).waitFor();

    await tabTo(page, (focused) => focused.tag === 'BUTTON' && focused.text.startsWith('Freeze'));
    const ring = await page.evaluate(() => {
      const style = getComputedStyle(document.activeElement as Element);
      return { style: style.outlineStyle, width: Number.parseFloat(style.outlineWidth) };
    });
    expect(ring.style).not.toBe('none');
    expect(ring.width).toBeGreaterThanOrEqual(2);
    await page.keyboard.press('Enter');
    await row(page, card.id)
      .getByRole('button', { name: /^Unfreeze/ })
      .waitFor();
    await policy.getByText('frozen').waitFor();

    expect((await client.cards.retrieve(card.id)).status).toBe('frozen');
  });

  it('advances the test clock and shows an intent expire', async () => {
    const client = server().mock.client();
    const { card } = await server().mock.cardholder({ client, card: { policy: { requireApproval: true } } });
    const intent = await client.intents.create({
      cardId: card.id,
      summary: 'Conference ticket',
      expectedAmount: 45_000,
      ttlMinutes: 30,
    });
    const page = await signedIn(client);
    await openView(page, 'Test clock');
    await settled(page);

    await page.getByLabel('Advance by').fill('1');
    await page.getByLabel('Unit').selectOption('hours');
    await page.getByRole('button', { name: 'Advance the clock' }).click();
    const ran = page.getByRole('list', { name: 'Events of the advance' });
    await ran.getByRole('listitem').filter({ hasText: 'intent.expired' }).filter({ hasText: intent.id }).waitFor();
    await page.getByText('1 h', { exact: true }).waitFor();

    await openView(page, /^Approvals/, 'Approvals');
    await row(page, intent.id).getByText('expired').waitFor();
    expect((await client.intents.retrieve(intent.id)).status).toBe('expired');
  });

  it('simulates an authorization, settles it, and lists declines with their reason', async () => {
    const client = server().mock.client();
    const { card } = await server().mock.cardholder({ client, balance: 10_000 });
    const page = await signedIn(client);
    await openView(page, 'Transactions');
    await settled(page);

    await page.getByLabel('Amount (USD)').fill('12.50');
    await page.getByLabel('Merchant').fill('Coffee Roasters');
    await page.getByRole('button', { name: 'Authorize' }).click();
    await page
      .getByRole('status')
      .getByText(/Approved: txn_\w+ is pending/)
      .waitFor();
    const coffee = row(page, 'Coffee Roasters');
    await coffee.getByRole('button', { name: /^Settle/ }).click();
    await coffee.getByText('completed').waitFor();

    await page.getByLabel('Amount (USD)').fill('500');
    await page.getByLabel('Merchant').fill('Yacht club');
    await page.getByRole('button', { name: 'Authorize' }).click();
    await page
      .getByRole('status')
      .getByText(/Declined \(insufficient_funds\)/)
      .waitFor();
    await row(page, 'Yacht club').getByText('insufficient_funds').waitFor();

    const list = await client.transactions.list({ cardId: card.id });
    expect(list.data.map((transaction) => [transaction.merchant.name, transaction.status]).sort()).toEqual([
      ['Coffee Roasters', 'completed'],
      ['Yacht club', 'declined'],
    ]);
  });
});

describe("an intent's own page (its approvalUrl)", () => {
  /** The page of an intent, as its approvalUrl names it. */
  const pageOf = (intentId: string) => `${server().dashboardUrl}#/approvals/${intentId}`;

  it('opens before sign-in, returns to the intent after it, shows what a person decides on, and approves', async () => {
    const client = server().mock.client();
    const inbox = await server().mock.webhookInbox({ client, events: ['intent.approved'] });
    const { owner, agent, card } = await server().mock.cardholder({
      client,
      email: 'ada@example.com',
      agent: { name: 'GPU buyer' },
      balance: 50_000,
      card: { policy: { requireApproval: true, limits: { perDay: 50_000, perMonth: 200_000 } } },
    });
    await client.customers.update(owner.id, { name: { first: 'Ada', last: 'Lovelace' } });
    await client.simulate.authorize({ cardId: card.id, amount: 1_250, merchant: { name: 'Coffee Roasters', mcc: '5814' } });
    const intent = await client.intents.create({
      cardId: card.id,
      summary: 'One month of GPU credits',
      expectedAmount: 2_500,
      expectedMerchant: 'OpenAI',
      customerIntentId: 'order-77',
    });
    const key = await keyFor(client, 'Ada Lovelace');

    // The person follows the link in a new tab: nothing is shown before signing in, and signing in leads back.
    const { page } = await openAt(pageOf(intent.id));
    await page.getByText(`Sign in to decide on intent ${intent.id}`).waitFor();
    await signIn(page, key);
    await page.getByRole('heading', { level: 1, name: 'Approve a purchase: One month of GPU credits' }).waitFor();
    expect(page.url()).toBe(pageOf(intent.id));

    const purchase = page.getByRole('region', { name: 'The purchase' });
    const fact = (term: string) =>
      purchase
        .locator('dt')
        .filter({ hasText: new RegExp(`^${term}$`) })
        .locator('xpath=following-sibling::dd[1]');
    await fact('Amount').getByText('$25.00', { exact: true }).waitFor();
    expect(await fact('Amount').textContent()).toContain(
      'A payment from $20.00 to $30.00 matches it (the larger of 10 % and $5.00).',
    );
    expect(await fact('Merchant').textContent()).toBe('OpenAI');
    expect(await fact('Agent').textContent()).toContain('GPU buyer');
    expect(await fact('Agent').textContent()).toContain(agent.id);
    expect(await fact('Owner').textContent()).toContain('Ada Lovelace (ada@example.com)');
    expect(await fact('Card').textContent()).toContain(`•••• ${card.last4}`);
    // The card's limits, and beside them the owner's balance ($500.00 less the $12.50 still held).
    expect(await fact('May still spend').textContent()).toBe('$487.50 today, $1,987.50 this month; balance $487.50');
    expect(await fact('If paid now').textContent()).toContain("needs a person's approval");
    expect(await fact('If paid now').textContent()).toContain('approval_required');
    expect(await fact('Declared').textContent()).toContain('order-77');
    await page
      .getByRole('region', { name: 'Recent spends of GPU buyer' })
      .getByText(/\$12\.50 at Coffee Roasters/)
      .waitFor();
    await purchase.getByText('pending approval', { exact: true }).waitFor();

    await purchase.getByRole('button', { name: 'Approve' }).click();
    // The decider is the person who signed in, named by their key's label, not the transport.
    await purchase.getByText(/^Approved .* by Ada Lovelace via the dashboard\. The agent may now pay\.$/).waitFor();
    await purchase.getByText('approved', { exact: true }).waitFor();
    expect(await purchase.getByRole('button', { name: 'Approve' }).count()).toBe(0);
    expect(await client.intents.retrieve(intent.id)).toMatchObject({
      status: 'pending',
      decidedBy: { name: 'Ada Lovelace', via: 'the dashboard', apiKey: { name: 'Ada Lovelace' } },
    });
    await inbox.waitFor('intent.approved', (event) => event.data.intentId === intent.id, { timeoutMs: UI_TIMEOUT_MS });

    // The list of every intent reads `approved` too, not `pending`, and links back to the page.
    await openView(page, /^Approvals/, 'Approvals');
    const listed = row(page, 'One month of GPU credits');
    await listed.getByText('approved', { exact: true }).waitFor();
    await listed.getByRole('link', { name: 'One month of GPU credits' }).click();
    await page.getByRole('heading', { level: 1, name: 'Approve a purchase: One month of GPU credits' }).waitFor();
  });

  it('rejects with a reason; a decided intent shows its outcome and no answers; an unknown one says so', async () => {
    const client = server().mock.client();
    const { card } = await server().mock.cardholder({ client, card: { policy: { requireApproval: true } } });
    const intent = await client.intents.create({ cardId: card.id, summary: 'Yacht rental', expectedAmount: 90_000 });
    const page = await signedIn(client);
    await page.goto(pageOf(intent.id));
    const purchase = page.getByRole('region', { name: 'The purchase' });
    // No limit is said as such, beside the balance (the cardholder's $10,000.00).
    await purchase.getByText('no daily limit, no monthly limit; balance $10,000.00', { exact: true }).waitFor();
    await purchase.getByLabel('Reason for rejection').fill('Not in this month’s budget');
    await purchase.getByRole('button', { name: 'Reject' }).click();
    await purchase.getByText(/^Rejected .* by dashboard via the dashboard: Not in this month’s budget$/).waitFor();
    expect(await client.intents.retrieve(intent.id)).toMatchObject({
      status: 'rejected',
      rejectionReason: 'Not in this month’s budget',
    });

    // Decided elsewhere while the page was open (the agent's app, another person): the page follows, no answers left.
    const other = await client.intents.create({ cardId: card.id, summary: 'Hotel in Lisbon', expectedAmount: 30_000 });
    await page.goto(pageOf(other.id));
    await purchase.getByRole('button', { name: 'Approve' }).waitFor();
    await client.intents.approve(other.id);
    await purchase.getByText(/^Approved .* through the API with key sk_test_\.\.\.\w{4}\./).waitFor();
    expect(await purchase.getByRole('button', { name: 'Reject' }).count()).toBe(0);

    await page.goto(pageOf('int_doesnotexist0000'));
    await page.getByRole('alert').filter({ hasText: 'not_found' }).waitFor();
  });
});

describe('variants and modes', () => {
  it('speaks the user variant: users, its cards and its event names, and answers an intent', async () => {
    const users = server().mock.client({ variant: 'user' });
    const { owner, card } = await server().mock.cardholder({
      client: users,
      email: 'grace@example.com',
      card: { purpose: 'Cloud compute', requireApproval: true },
    });
    await users.simulate.authorize({ cardId: card.id, amount: 1_500, merchant: { name: 'OpenAI' } });
    const intent = await users.intents.create({ cardId: card.id, summary: 'More GPUs', expectedAmount: 3_000 });
    const page = await signedIn(users, 'user');
    await page.getByText('User variant').waitFor();

    await openView(page, 'Users');
    await row(page, owner.id).getByText('grace@example.com').waitFor();
    await openView(page, 'Cards');
    await row(page, card.id).getByText('Cloud compute').waitFor();
    await openView(page, 'Events');
    await page.getByLabel('Type').selectOption('transaction.authorized');
    await page.getByRole('list', { name: 'transaction.authorized events' }).getByRole('listitem').first().waitFor();
    await openView(page, /^Approvals/, 'Approvals');
    await page
      .getByRole('article', { name: /More GPUs/ })
      .getByRole('button', { name: 'Approve' })
      .click();
    await page.getByText('Nothing is waiting.').waitFor();
    expect((await users.intents.retrieve(intent.id)).status).toBe('pending');
  });

  it('signs in with a live key: the live organization, and no test clock or simulation', async () => {
    const client = server().mock.client();
    await server().mock.cardholder({ client, email: 'test-only@example.com' });
    const live = await client.apiKeys.create({ name: 'live', mode: 'live' });
    const { page } = await open();
    await signIn(page, live.key);
    await page.getByText('Live mode', { exact: true }).waitFor();
    await page.getByText('Live mode has no test clock').waitFor();
    await openView(page, 'Customers');
    await page.getByText('No customers yet').waitFor();
    await openView(page, 'Transactions');
    await page.getByText('Simulated authorizations are for test mode').waitFor();
  });
});

describe('isolation', () => {
  it("shows one organization's objects only, and the API refuses the page another's ids", async () => {
    const mine = server().mock.client();
    const theirs = server().mock.client();
    const own = await server().mock.cardholder({ client: mine, email: 'mine@example.com' });
    const other = await server().mock.cardholder({
      client: theirs,
      email: 'theirs@example.com',
      card: { policy: { requireApproval: true } },
    });
    const otherIntent = await theirs.intents.create({ cardId: other.card.id, summary: 'Their intent', expectedAmount: 1_000 });
    const page = await signedIn(mine);

    for (const [link, heading] of OBJECT_VIEWS) {
      await openView(page, link, heading);
      await settled(page);
      const text = (await page.locator('main').textContent()) ?? '';
      for (const foreign of ['theirs@example.com', other.owner.id, other.agent.id, other.card.id, otherIntent.id]) {
        expect(text, `${heading} shows ${foreign}`).not.toContain(foreign);
      }
    }
    await openView(page, 'Cards');
    await row(page, own.card.id).waitFor();

    // The page's own origin, its signed-in key, the other organization's ids: the API answers 404 to each.
    const statuses = await page.evaluate(
      async ({ paths }) => {
        const stored = JSON.parse(sessionStorage.getItem('cardrail.dashboard.session') ?? '{}') as { apiKey: string };
        const headers = { Authorization: `Bearer ${stored.apiKey}` };
        const answers: number[] = [];
        for (const [method, path] of paths) answers.push((await fetch(`/v1${path}`, { method, headers })).status);
        return answers;
      },
      {
        paths: [
          ['GET', `/cards/${other.card.id}`],
          ['GET', `/customers/${other.owner.id}`],
          ['POST', `/cards/${other.card.id}/freeze`],
          ['POST', `/intents/${otherIntent.id}/approve`],
        ],
      },
    );
    expect(statuses).toEqual([404, 404, 404, 404]);
    expect((await theirs.cards.retrieve(other.card.id)).status).toBe('active');
    expect((await theirs.intents.retrieve(otherIntent.id)).status).toBe('pending_approval');

    // Switching keys switches everything: the other organization's objects, none of the first one's.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await signIn(page, await keyFor(theirs));
    await openView(page, /^Approvals/, 'Approvals');
    await page.getByRole('article', { name: /Their intent/ }).waitFor();
    await openView(page, 'Cards');
    await row(page, other.card.id).waitFor();
    expect(await page.locator('main').textContent()).not.toContain(own.card.id);
  });
});

/** Presses Tab until the focused element matches (at most 60 presses), and fails naming where the focus went. */
async function tabTo(page: Page, matches: (focused: { tag: string; text: string }) => boolean): Promise<void> {
  const visited: string[] = [];
  for (let presses = 0; presses < 60; presses++) {
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => ({
      tag: document.activeElement?.tagName ?? '',
      text: document.activeElement?.textContent?.trim() ?? '',
    }));
    if (matches(focused)) return;
    visited.push(`${focused.tag} ${focused.text.slice(0, 30)}`);
  }
  throw new Error(`The focus never reached the element; it went through: ${visited.join(' | ')}`);
}
