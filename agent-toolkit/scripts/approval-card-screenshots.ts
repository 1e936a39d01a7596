// Takes docs/agents.md's screenshots of the MCP App approval card: `npm run screenshots -w @cardrail/agent-toolkit`
// after a build (the card is served by the built cardrail-mcp code, as a user gets it). The card is shown by the
// tests' MCP Apps host (test/support/apps-host.ts) in Chromium; a seeded mock on a frozen clock gives the same ids,
// amounts and times on every run, so a picture changes only when the card does. Written to docs/agents/.
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startMockServer } from '@cardrail/mock-server/node';
import { launchChromium } from '@cardrail/runtime-tests/browser';
import { Cardrail } from '@cardrail/sdk';
import { type CallToolResult, Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { Page } from 'playwright-core';
import { createCardrailToolkit } from '../dist/index.mjs';
import { serveHttp } from '../dist/mcp-node.mjs';
import { startAppsHost } from '../test/support/apps-host.js';

/** Once the host sized the card's frame to the last size the card reported. */
async function settled(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const frame = document.querySelector('iframe');
    const last = window.cardSizes.at(-1);
    return frame !== null && last?.height !== undefined && frame.style.height === `${last.height}px`;
  });
}

const out = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'docs', 'agents');
const apiKey = 'sk_test_cardscreenshots1';

const running = await startMockServer({ port: 0, seed: 'approval-card', frozenClock: '2026-11-28T12:00:00.000Z' });
const browser = await launchChromium();
try {
  const cardrail = new Cardrail({ apiKey, baseUrl: running.url });
  const ada = await cardrail.customers.create({ email: 'ada@example.com', name: { first: 'Ada', last: 'Lovelace' } });
  await cardrail.simulate.deposit({ customerId: ada.id, amount: 50_000 });
  const booker = await cardrail.agents.create({ customerId: ada.id, name: 'Travel booker' });
  const card = await cardrail.cards.create({
    customerId: ada.id,
    agentId: booker.id,
    policy: { requireApproval: true, limits: { perDay: 100_000, perMonth: 300_000 } },
  });
  const toolkit = createCardrailToolkit({ apiKey, baseUrl: running.url, agentId: booker.id });
  const server = await serveHttp(toolkit, { port: 0 });
  const client = new Client(
    { name: 'Example host', version: '1.0.0' },
    {
      capabilities: { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } } },
      versionNegotiation: { mode: { pin: '2026-07-28' } },
    },
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
  const host = await startAppsHost(browser, client);
  mkdirSync(out, { recursive: true });
  const shots: string[] = [];
  const declare = async (summary: string, expectedAmount: number, expectedMerchant: string) => {
    const args = { cardId: card.id, summary, expectedAmount, expectedMerchant };
    return { args, result: (await client.callTool({ name: 'declare_intent', arguments: args })) as CallToolResult };
  };

  // Both waiting first: once the first is approved, Cardrail would let the same payment through (`would be approved`).
  const light = await declare('Flight to Lisbon', 32_000, 'TAP Air');
  const dark = await declare('Hotel in Lisbon, 3 nights', 41_000, 'Hotel Lisboa');
  const shown = [];
  for (const [theme, { args, result }, name] of [
    ['light', light, 'approval-card.png'],
    ['dark', dark, 'approval-card-dark.png'],
  ] as const) {
    const card = await host.show('declare_intent', args, result, { theme, viewport: { width: 640, height: 900 } });
    await card.frame.getByText('Travel booker', { exact: true }).waitFor();
    await card.frame.getByRole('button', { name: 'Approve' }).waitFor();
    await settled(card.page);
    await card.page.locator('iframe').screenshot({ path: join(out, name) });
    shots.push(name);
    shown.push(card);
  }
  const [first] = shown;
  if (first === undefined) throw new Error('No card was shown');
  const sizes = await first.page.evaluate(() => window.cardSizes.length);
  await first.frame.getByRole('button', { name: 'Approve' }).click();
  await first.frame.getByRole('heading', { name: 'Purchase approved' }).waitFor();
  // The card reads the intent again after deciding: Cardrail would now let the payment through.
  await first.frame.getByText('would be approved', { exact: true }).waitFor();
  await first.page.waitForFunction((before) => window.cardSizes.length > before, sizes);
  await settled(first.page);
  await first.page.locator('iframe').screenshot({ path: join(out, 'approval-card-approved.png') });
  shots.push('approval-card-approved.png');
  await host.close();
  await client.close();
  await server.close();
  process.stdout.write(`screenshots: ${shots.join(', ')} in ${out}\n`);
} finally {
  await browser.close();
  await running.close();
}
