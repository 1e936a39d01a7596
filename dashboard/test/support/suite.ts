// The servers a dashboard test file shares: the mock's Node server (the built package's, with its dashboard) and
// Chromium, and the pages each test opens, checked after it. Apart from dashboard.ts, which the screenshot script
// also imports, outside any test runner.
import { type RunningMockServer, startMockServer } from '@cardrail/mock-server/node';
import { launchChromium } from '@cardrail/runtime-tests/browser';
import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { type DashboardPage, openDashboard } from './dashboard.js';

/**
 * A test file's mock server (the built package's, with its dashboard) and Chromium, started before its tests and
 * stopped after them; the pages a test opens are closed after it, and each must have logged no console error (a CSP
 * violation is one) and requested nothing from another origin.
 */
export function dashboardSuite() {
  let running: RunningMockServer | undefined;
  let browser: Browser | undefined;
  const opened: DashboardPage[] = [];
  beforeAll(async () => {
    [running, browser] = await Promise.all([startMockServer({ port: 0 }), launchChromium()]);
  });
  afterAll(async () => {
    await browser?.close();
    await running?.close();
  });
  afterEach(async () => {
    const pages = opened.splice(0);
    await Promise.all(pages.map((page) => page.close()));
    const origin = new URL(server().url).origin;
    for (const { errors, requests } of pages) {
      expect(errors).toEqual([]);
      expect(requests.filter((url) => new URL(url).origin !== origin)).toEqual([]);
    }
  });
  const server = (): RunningMockServer => {
    if (!running) throw new Error('the mock server starts in beforeAll');
    return running;
  };
  /** A fresh page at an address of the dashboard (a view's, an intent's page). */
  const openAt = async (url: string, viewport?: { width: number; height: number }) => {
    if (!browser) throw new Error('Chromium starts in beforeAll');
    const dashboard = await openDashboard(browser, url, viewport);
    opened.push(dashboard);
    return dashboard;
  };
  /** A fresh page at the dashboard's root. */
  const open = (viewport?: { width: number; height: number }) => {
    const { dashboardUrl } = server();
    if (!dashboardUrl) throw new Error('startMockServer() serves no dashboard');
    return openAt(dashboardUrl, viewport);
  };
  return { server, open, openAt };
}
