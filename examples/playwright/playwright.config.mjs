import sparticuz from '@sparticuz/chromium';
import { defineConfig } from '@playwright/test';

// The project's Chromium: the binary ships inside @sparticuz/chromium, nothing is installed on the system. Its
// defaults that switch off the same-origin policy, or suit a serverless function rather than a browser, are dropped.
const DROPPED = new Set(['--disable-web-security', '--allow-running-insecure-content', '--single-process', '--no-zygote']);

export default defineConfig({
  testDir: 'test',
  globalSetup: './test/global-setup.mjs',
  // One mock, restored before each test: the tests run one after another.
  workers: 1,
  fullyParallel: false,
  forbidOnly: true,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  reporter: [['list']],
  use: {
    browserName: 'chromium',
    headless: true,
    launchOptions: {
      executablePath: await sparticuz.executablePath(),
      args: sparticuz.args.filter((flag) => !DROPPED.has(flag.split('=')[0])),
    },
  },
});
