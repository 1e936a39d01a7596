// Driving the dashboard as a person would: open it in a fresh browser context, sign in with a key, move between views
// by their links, and wait for what the page shows (never for a fixed time). Every page also records what would betray
// a broken policy: console errors (a Content-Security-Policy violation is one), uncaught exceptions and requests to
// any other origin.
import axe from 'axe-core';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { WAITS } from '../../../scripts/lib/test-waits.mjs';

/**
 * How long a step waits for what the page shows (scripts/lib/test-waits.mjs): sized for a loaded two-core machine,
 * and ended as soon as the page shows it.
 */
export const UI_TIMEOUT_MS = WAITS.ui;

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

export interface DashboardPage {
  page: Page;
  context: BrowserContext;
  /** Console errors and uncaught exceptions, in order. */
  errors: string[];
  /** Every URL the page requested. */
  requests: string[];
  close(): Promise<void>;
}

export async function openDashboard(
  browser: Browser,
  url: string,
  viewport: { width: number; height: number } = DESKTOP,
): Promise<DashboardPage> {
  const context = await browser.newContext({ viewport });
  context.setDefaultTimeout(UI_TIMEOUT_MS);
  const page = await context.newPage();
  const errors: string[] = [];
  const requests: string[] = [];
  const isApi = (address: string) => new URL(address).pathname.startsWith('/v1/');
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    // Chromium logs every 4xx answer; the API's are expected answers the page shows (a refused key, an unknown id).
    if (message.text().startsWith('Failed to load resource') && isApi(message.location().url)) return;
    errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(`uncaught: ${error.message}`));
  page.on('request', (request) => requests.push(request.url()));
  page.on('response', (response) => {
    if (response.status() >= 400 && !isApi(response.url())) errors.push(`${response.status()} for ${response.url()}`);
  });
  await page.goto(url);
  return { page, context, errors, requests, close: () => context.close() };
}

/** A view of the signed-in page (customer variant): its link in the navigation, and its heading. */
type View = readonly [link: string | RegExp, heading: string];

/** The views that show the organization's objects (owners, agents, cards, intents, transactions, events). */
export const OBJECT_VIEWS: readonly View[] = [
  ['Overview', 'Overview'],
  ['Customers', 'Customers'],
  ['Agents', 'Agents'],
  ['Cards', 'Cards'],
  [/^Approvals/, 'Approvals'],
  ['Transactions', 'Transactions'],
  ['Events', 'Events'],
];

/** Every view, in the order of the navigation. */
export const VIEWS: readonly View[] = [
  ...OBJECT_VIEWS,
  ['Webhooks', 'Webhooks'],
  ['Test clock', 'Test clock'],
  ['API keys', 'API keys'],
];

/** Signs in through the form, with the keyboard only, and waits for the signed-in page (the view the URL names). */
export async function signIn(page: Page, apiKey: string, variant: 'customer' | 'user' = 'customer'): Promise<void> {
  const field = page.getByLabel('API key');
  await field.focus();
  await page.keyboard.type(apiKey);
  // Fails here, naming the cause, rather than 30 s later waiting for a page a mistyped key never opens.
  const typed = await field.inputValue();
  if (typed !== apiKey) throw new Error(`the API key field holds ${typed.length} of the ${apiKey.length} characters typed`);
  if (variant === 'user') await page.getByLabel(/User variant/).check();
  await field.focus();
  await page.keyboard.press('Enter');
  const signedIn = page.getByRole('button', { name: 'Sign out' });
  const refused = page.locator('#sign-in-error');
  await signedIn.or(refused).first().waitFor();
  if (await refused.isVisible()) throw new Error(`sign-in refused: ${await refused.textContent()}`);
}

/** Opens a view by its link in the navigation and waits for its heading. */
export async function openView(page: Page, link: string | RegExp, heading: string = String(link)): Promise<void> {
  await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: link }).click();
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
}

/** Waits until no "Loading …" line is left on the page. */
export async function settled(page: Page): Promise<void> {
  await page.waitForFunction(() => !/Loading [^…]*…/.test(document.querySelector('main')?.textContent ?? 'Loading …'));
}

/** The row of a table that mentions `text`. */
export function row(page: Page | Locator, text: string | RegExp): Locator {
  return page.getByRole('row').filter({ hasText: text });
}

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

/**
 * Runs axe-core in the page (evaluated through the browser's debugging protocol, so the page's own
 * Content-Security-Policy stays as it is) against WCAG 2.1 A and AA and axe's best practices, and answers the
 * violations of serious or critical impact.
 */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  const injected = await page.evaluate(() => 'axe' in window);
  if (!injected) await page.evaluate(axe.source);
  return page.evaluate(async () => {
    const results = await (window as unknown as { axe: typeof axe }).axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
    });
    return results.violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map((violation) => ({
        id: violation.id,
        impact: violation.impact ?? null,
        help: violation.help,
        targets: violation.nodes.map((node) => node.target.join(' ')),
      }));
  });
}

/** Whether the document is wider than the window (a page that makes a person scroll sideways). */
export function overflowsSideways(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1);
}
