import { EXTENSION_ID, getUiCapability, RESOURCE_MIME_TYPE } from '@modelcontextprotocol/ext-apps/server';
import type { ApprovalClient } from '../approval/approval-call.js';

/** MCP Apps, the extension a client declares when it renders a server's HTML views (`io.modelcontextprotocol/ui`). */
export const UI_EXTENSION = EXTENSION_ID;

/** The MIME type of an MCP App's HTML view (`text/html;profile=mcp-app`). */
export const APP_HTML_MIME_TYPE = RESOURCE_MIME_TYPE;

/** The approval card: the UI resource a tool that may leave an intent waiting for a person links to. */
export const APPROVAL_CARD_URI = 'ui://cardrail/approval-card';

/**
 * Whether the client renders MCP Apps' HTML views: it declared the extension with the HTML MIME type (the extension's
 * spec, "Client (Host) Capabilities"). A 2026-07-28 client says so on every request, a 2025-11-25 one at `initialize`.
 */
export function rendersApps(client: ApprovalClient): boolean {
  return getUiCapability(client.capabilities)?.mimeTypes?.includes(APP_HTML_MIME_TYPE) === true;
}
