// The SDK and the mock in a real headless Chromium (support/browser.ts), on pages bundled for browsers by esbuild:
// (a) a page on one origin calls the standalone mock (its CLI) on another, through CORS, and fails when the mock
//     refuses the page's origin or has CORS off (so this test can fail);
// (b) a page runs the mock itself with MSW's `setupWorker`, calls it through the SDK, and verifies the mock's
//     webhook with Web Crypto: once with msw 3 and once with msw 2 (the page bundled with `msw` aliased to msw 2,
//     and msw 2's own worker script served);
// (c) what each page weighs, printed with the results.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXPECTED_API_STEPS, freshKey } from '../scenarios/scenario.ts';
import {
  type BundledPage,
  bundlePage,
  chromiumLaunchFlags,
  DROPPED_CHROMIUM_FLAGS,
  formatSizes,
  launchChromium,
  type OpenedPage,
  openPage,
  type StaticServer,
  serveStatic,
} from '../support/browser.ts';
import { mockCli, type RunningCli, runtimeTestsDir, startMockCli } from '../support/runtimes.ts';

interface Attempt {
  ok: boolean;
  error?: { connectionError: boolean; code: string; status: number | undefined };
}

const requireHere = createRequire(import.meta.url);
const node = process.execPath;

describe('in Chromium', () => {
  let browser: Browser;
  const bundles: Record<'crossOrigin' | 'worker' | 'workerMsw2', BundledPage> = {} as never;
  const servers: StaticServer[] = [];
  const clis: RunningCli[] = [];

  beforeAll(async () => {
    const [crossOrigin, worker, workerMsw2, launched] = await Promise.all([
      bundlePage(join(runtimeTestsDir, 'pages', 'cross-origin.ts')),
      bundlePage(join(runtimeTestsDir, 'pages', 'msw-worker.ts')),
      // Every `msw` import of the page, the mock's dist/ included, bundled from msw 2 (npm:msw@2 as `msw2`).
      bundlePage(join(runtimeTestsDir, 'pages', 'msw-worker.ts'), { alias: { msw: 'msw2' } }),
      launchChromium(),
    ]);
    bundles.crossOrigin = crossOrigin;
    bundles.worker = worker;
    bundles.workerMsw2 = workerMsw2;
    browser = launched;
    console.log(`Chromium ${browser.version()}`);
  });

  afterAll(async () => {
    await browser?.close();
    await Promise.all([...servers.map((server) => server.close()), ...clis.map((cli) => cli.stop())]);
  });

  /** The cross-origin page served from http://localhost:<port>, and the mock's CLI with `flags` on 127.0.0.1. */
  async function crossOriginSetup(flags: string[]): Promise<{ opened: OpenedPage; pageOrigin: string; mockUrl: string }> {
    const [pages, cli] = await Promise.all([
      serveStatic(bundles.crossOrigin.files, 'localhost'),
      startMockCli(node, [mockCli, ...flags]),
    ]);
    servers.push(pages);
    clis.push(cli);
    const opened = await openPage(browser, `${pages.origin}/`);
    return { opened, pageOrigin: pages.origin, mockUrl: cli.url };
  }

  it('launches without the default flags that would turn the same-origin policy off', () => {
    const flags = chromiumLaunchFlags();
    for (const dropped of DROPPED_CHROMIUM_FLAGS) expect(flags.filter((flag) => flag.startsWith(dropped))).toEqual([]);
    expect(flags.length).toBeGreaterThan(10);
  });

  describe('(a) a page on another origin, through CORS', () => {
    it('creates, lists page by page and by iteration, and reads an unknown card as NotFoundError with its Request-Id', async () => {
      const { opened, pageOrigin, mockUrl } = await crossOriginSetup([]);
      expect(new URL(pageOrigin).origin).not.toBe(new URL(mockUrl).origin);
      const steps = await opened.page.evaluate(
        (url) => (window as unknown as { runApiSteps(u: string): Promise<string[]> }).runApiSteps(url),
        mockUrl,
      );
      expect(steps).toEqual(EXPECTED_API_STEPS);
    });

    it('works when --cors names the page origin', async () => {
      const pages = await serveStatic(bundles.crossOrigin.files, 'localhost');
      servers.push(pages);
      const cli = await startMockCli(node, [mockCli, '--cors', `http://other.test:8080,${pages.origin}`]);
      clis.push(cli);
      const opened = await openPage(browser, `${pages.origin}/`);
      const key = freshKey();
      expect(await tryCreate(opened, cli.url, key, 'allowed@example.com')).toEqual({ ok: true });
      expect(await customerEmails(cli.url, key)).toEqual(['allowed@example.com']);
    });

    for (const [title, flags] of [
      ['is refused by the browser when the mock runs with --no-cors', ['--no-cors']],
      ['is refused by the browser when --cors does not name the page origin', ['--cors', 'http://other.test:8080']],
    ] as const) {
      it(title, async () => {
        const { opened, mockUrl } = await crossOriginSetup([...flags]);
        const key = freshKey();
        const attempt = await tryCreate(opened, mockUrl, key, 'refused@example.com');
        // The browser blocked the call: the SDK saw no response at all.
        expect(attempt).toEqual({ ok: false, error: { connectionError: true, code: 'connection_error', status: undefined } });
        expect(opened.errors.join('\n')).toMatch(/CORS policy/);
        // The POST itself never reached the mock: its preflight failed first.
        expect(await customerEmails(mockUrl, key)).toEqual([]);
      });
    }
  });

  describe.each([
    { major: 3, bundle: 'worker', pkg: 'msw' },
    { major: 2, bundle: 'workerMsw2', pkg: 'msw2' },
  ] as const)('(b) the mock in the page, through MSW $major setupWorker', ({ major, bundle, pkg }) => {
    it('answers the SDK from the service worker and delivers a webhook the page verifies with Web Crypto', async () => {
      const files = new Map(bundles[bundle].files);
      files.set('/mockServiceWorker.js', {
        body: readFileSync(requireHere.resolve(`${pkg}/mockServiceWorker.js`)),
        contentType: 'text/javascript',
      });
      const pages = await serveStatic(files);
      servers.push(pages);
      const opened = await openPage(browser, `${pages.origin}/`);
      expect(await opened.page.evaluate(() => (window as unknown as { mswMajor: number }).mswMajor)).toBe(major);
      const steps = await opened.page.evaluate(() =>
        (window as unknown as { runWorkerSteps(): Promise<string[]> }).runWorkerSteps(),
      );
      expect(steps).toEqual([
        ...EXPECTED_API_STEPS,
        'webhook delivered',
        'verifySignature',
        'constructEvent',
        'unwrap (both schemes)',
        'sync forms refused',
        `unhandled request refused (${major === 3 ? 'onUnhandledFrame' : 'onUnhandledRequest'})`,
      ]);
      // The errors the console shows: the 404 the steps asked for (an unknown card), and MSW's refusal of the request
      // no handler answers (a 500, with its report), as `onUnhandled*: 'error'` asks.
      const expected = /status of 404|status of 500 \(Request Handler Error\)|\[MSW\]/;
      expect(opened.errors.filter((error) => !expected.test(error))).toEqual([]);
    });
  });

  describe('(c) bundles', () => {
    it('hold browser builds only, load the spec documents and validators on demand, and are reported', () => {
      for (const bundle of Object.values(bundles)) {
        // No node:crypto build of the SDK, and no Node built-in anywhere (esbuild would have failed on one).
        expect(bundle.inputs.filter((input) => /\/dist\/[^/]*\.node\./.test(input))).toEqual([]);
      }
      // The mock's page starts without its spec documents or Ajv: they are chunks loaded on first need.
      const entry = bundles.worker.files.get('/page.js');
      const entryText = new TextDecoder().decode(entry?.body as Uint8Array);
      expect(entryText).not.toContain('"openapi":"3.1');
      expect(bundles.worker.sizes.length).toBeGreaterThan(3);
      console.log(
        [
          formatSizes('(a) cross-origin page (the SDK)', bundles.crossOrigin.sizes),
          formatSizes('(b) MSW worker page (msw, the mock, the SDK)', bundles.worker.sizes),
        ].join('\n'),
      );
    });
  });
});

/** One create from the page, with the key given: the test then reads, from Node, what the mock holds under it. */
function tryCreate(opened: OpenedPage, mockUrl: string, apiKey: string, email: string): Promise<Attempt> {
  return opened.page.evaluate(
    ([url, key, address]) =>
      (window as unknown as { tryCreateCustomer(u: string, k: string, e: string): Promise<Attempt> }).tryCreateCustomer(
        url,
        key,
        address,
      ),
    [mockUrl, apiKey, email] as const,
  );
}

/** The customers the mock holds for a key, read from Node (no browser, so no CORS in the way). */
async function customerEmails(mockUrl: string, apiKey: string): Promise<string[]> {
  const response = await fetch(`${mockUrl}/customers?limit=100`, { headers: { Authorization: `Bearer ${apiKey}` } });
  return ((await response.json()) as { data: { email: string }[] }).data.map((customer) => customer.email);
}
