// The browser side of the MCP Apps test host: the host half of the extension's postMessage protocol is the package's
// own (`AppBridge` of @modelcontextprotocol/ext-apps), so the card is tested against what real hosts build on. The
// page embeds a card's HTML in a sandboxed iframe (scripts only: an opaque origin, no access to the host page), under
// the restrictive Content-Security-Policy a host applies to a resource that asks for no domains (no `connect-src`),
// and hands every request of the view to the test (Node) through functions it exposed on `window`.
import { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge';
import type { CallToolRequest, CallToolResult } from '@modelcontextprotocol/client';

/** What the test (Node) exposes to the page: the host's decisions stay there. */
interface HostBindings {
  hostCallTool(params: CallToolRequest['params']): Promise<CallToolResult>;
  hostOpenLink(url: string): Promise<void>;
  hostModelContext(text: string): Promise<void>;
}

export interface ShowCard {
  html: string;
  toolName: string;
  toolArguments: Record<string, unknown>;
  toolResult: CallToolResult;
  theme: 'light' | 'dark';
}

/** What a host applies to a UI resource without `_meta.ui.csp`: its own document, nothing fetched from anywhere. */
const RESTRICTIVE_CSP = [
  "default-src 'none'",
  "script-src 'unsafe-inline'",
  "style-src 'unsafe-inline'",
  'img-src data:',
  "connect-src 'none'",
  "frame-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

function withCsp(html: string): string {
  const meta = `<meta http-equiv="Content-Security-Policy" content="${RESTRICTIVE_CSP}">`;
  if (!/<head>/i.test(html)) throw new Error('The card has no <head> to put the host CSP in');
  return html.replace(/<head>/i, (head) => `${head}${meta}`);
}

declare global {
  interface Window extends HostBindings {
    showCard(card: ShowCard): Promise<void>;
    cardSizes: { width?: number | undefined; height?: number | undefined }[];
  }
}

window.cardSizes = [];

window.showCard = async (card) => {
  const iframe = document.createElement('iframe');
  iframe.setAttribute('sandbox', 'allow-scripts');
  iframe.title = 'Approval card';
  iframe.style.cssText = 'width: 100%; border: 1px solid #ccd; border-radius: 12px; height: 200px';
  document.querySelector('main')?.append(iframe);
  const view = iframe.contentWindow;
  if (view === null) throw new Error('The iframe has no window');
  const bridge = new AppBridge(
    null,
    { name: 'Cardrail test host', version: '1.0.0' },
    { serverTools: {}, openLinks: {}, updateModelContext: { text: {} }, logging: {} },
    { hostContext: { theme: card.theme, displayMode: 'inline', availableDisplayModes: ['inline'], platform: 'web' } },
  );
  bridge.oncalltool = (params) => window.hostCallTool(params);
  bridge.onopenlink = async ({ url }) => {
    await window.hostOpenLink(url);
    return {};
  };
  bridge.onupdatemodelcontext = async ({ content }) => {
    const text = (content ?? []).map((block) => (block.type === 'text' ? block.text : '')).join('\n');
    await window.hostModelContext(text);
    return {};
  };
  bridge.onsizechange = (size) => {
    window.cardSizes.push(size);
    if (size.height !== undefined) iframe.style.height = `${size.height}px`;
  };
  const initialized = new Promise<void>((resolve) => {
    bridge.oninitialized = () => resolve();
  });
  await bridge.connect(new PostMessageTransport(view, view));
  iframe.srcdoc = withCsp(card.html);
  await initialized;
  // The spec's order: the tool's input (once), then its result.
  await bridge.sendToolInput({ arguments: card.toolArguments });
  await bridge.sendToolResult(card.toolResult);
};
