// A small MCP Apps host for tests: what Claude, ChatGPT or VS Code do with a tool that links a UI resource, minus the
// model. It lists the server's tools and keeps the app-only ones from the model (`_meta.ui.visibility`), reads the
// linked resource (`resources/read`), renders it in Chromium through the extension's own host side (host-page.ts:
// `AppBridge`, postMessage, a sandboxed iframe under a restrictive CSP), and proxies the view's `tools/call` to the
// server only for tools whose visibility includes "app" (the extension's spec: a host "MUST reject" the others).
import { fileURLToPath } from 'node:url';
import { bundlePage, serveStatic, type StaticServer } from '@cardrail/runtime-tests/browser';
import type { CallToolResult, Client, Tool } from '@modelcontextprotocol/client';
import type { Browser, FrameLocator, Page } from 'playwright-core';
import { WAITS } from '../../../scripts/lib/test-waits.mjs';
import type { ShowCard } from './apps-host/host-page.js';

/** What the extension's spec says of a tool's visibility: who may call it (`["model", "app"]` when unset). */
export function visibilityOf(tool: Tool): string[] {
  const ui = tool._meta?.ui as { visibility?: string[] } | undefined;
  return ui?.visibility ?? ['model', 'app'];
}

/** The tool's linked UI resource, if any (`_meta.ui.resourceUri`). */
export function resourceUriOf(tool: Tool): string | undefined {
  return (tool._meta?.ui as { resourceUri?: string } | undefined)?.resourceUri;
}

/** One card on a page, and what its view asked the host. */
export interface ShownCard {
  page: Page;
  /** The card's document, inside the host's sandboxed iframe. */
  frame: FrameLocator;
  /** Every `tools/call` the view sent, with whether the host let it through. */
  toolCalls: { name: string; allowed: boolean }[];
  /** What the view asked to add to the model's context (`ui/update-model-context`). */
  modelContext: string[];
  /** The links the view asked the host to open (`ui/open-link`). */
  openedLinks: string[];
}

export interface AppsHost {
  /** The tools as the model sees them: the server's, without the app-only ones. */
  modelTools(): Promise<Tool[]>;
  /** Renders a tool's result in the UI resource the tool links, on a fresh page, as a host does after the call. */
  show(toolName: string, args: Record<string, unknown>, result: CallToolResult, options?: ShowOptions): Promise<ShownCard>;
  close(): Promise<void>;
}

export interface ShowOptions {
  theme?: 'light' | 'dark';
  viewport?: { width: number; height: number };
}

const HOST_PAGE = fileURLToPath(new URL('./apps-host/host-page.ts', import.meta.url));

/** Starts the host for `client` (connected, having declared MCP Apps) in `browser`. */
export async function startAppsHost(browser: Browser, client: Client): Promise<AppsHost> {
  const bundled = await bundlePage(HOST_PAGE, { splitting: false });
  bundled.files.set('/index.html', {
    body: '<!doctype html><html lang="en"><meta charset="utf-8"><title>MCP Apps test host</title><main></main><script type="module" src="/page.js"></script>',
    contentType: 'text/html; charset=utf-8',
  });
  const site: StaticServer = await serveStatic(bundled.files);
  const listed = async () => (await client.listTools()).tools;
  const pages: Page[] = [];

  return {
    async modelTools() {
      return (await listed()).filter((tool) => visibilityOf(tool).includes('model'));
    },

    async show(toolName, args, result, options = {}) {
      const tools = await listed();
      const tool = tools.find((candidate) => candidate.name === toolName);
      const uri = tool === undefined ? undefined : resourceUriOf(tool);
      if (uri === undefined) throw new Error(`${toolName} links no UI resource: a host shows its result as text`);
      const resource = await client.readResource({ uri });
      const html = resource.contents[0] && 'text' in resource.contents[0] ? resource.contents[0].text : undefined;
      if (typeof html !== 'string') throw new Error(`${uri} has no HTML text`);

      const context = await browser.newContext({
        viewport: options.viewport ?? { width: 720, height: 900 },
        locale: 'en-US',
        timezoneId: 'UTC',
        colorScheme: options.theme ?? 'light',
      });
      context.setDefaultTimeout(WAITS.ui);
      const page = await context.newPage();
      pages.push(page);
      const shown: ShownCard = {
        page,
        frame: page.frameLocator('iframe[title="Approval card"]'),
        toolCalls: [],
        modelContext: [],
        openedLinks: [],
      };
      await page.exposeFunction('hostCallTool', async (params: { name: string; arguments?: Record<string, unknown> }) => {
        const called = tools.find((candidate) => candidate.name === params.name);
        const allowed = called !== undefined && visibilityOf(called).includes('app');
        shown.toolCalls.push({ name: params.name, allowed });
        if (!allowed) throw new Error(`The host refuses ${params.name}: its visibility does not include "app"`);
        return client.callTool(
          { name: params.name, arguments: params.arguments ?? {} },
          {
            timeout: WAITS.ui,
          },
        );
      });
      await page.exposeFunction('hostOpenLink', async (url: string) => {
        shown.openedLinks.push(url);
      });
      await page.exposeFunction('hostModelContext', async (text: string) => {
        shown.modelContext.push(text);
      });
      await page.goto(`${site.origin}/`);
      const card: ShowCard = { html, toolName, toolArguments: args, toolResult: result, theme: options.theme ?? 'light' };
      await page.evaluate((given) => window.showCard(given), card);
      return shown;
    },

    async close() {
      await Promise.all(pages.map((page) => page.context().close()));
      await site.close();
    },
  };
}
