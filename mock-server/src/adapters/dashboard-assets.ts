import type { IncomingMessage, ServerResponse } from 'node:http';
import { nodeBuiltin } from './node-builtins.js';

/** Where the page is: the server's root. Its scripts, styles and icon are under `DASHBOARD_ASSET_PATH`. */
export const DASHBOARD_PATH = '/';
const DASHBOARD_ASSET_PATH = '/dashboard/';

/**
 * The dashboard's page of an intent (`http://127.0.0.1:4010/#/approvals/int_...`), where a person approves or rejects
 * it: the intent's `approvalUrl` on a server that serves the dashboard. `origin` is read when an intent is declared,
 * so a server listening on a port it picked names that port.
 */
export function dashboardApprovalPage(origin: () => string): (intentId: string) => string {
  return (intentId) => `${origin()}${DASHBOARD_PATH}#/approvals/${encodeURIComponent(intentId)}`;
}

/**
 * Only the page's own origin, for everything: scripts and styles come from files (nothing inline), the API is called
 * on the same origin, and no other site may frame the page or receive its forms.
 */
export const DASHBOARD_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};

const SECURITY_HEADERS = {
  'Content-Security-Policy': DASHBOARD_CSP,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
  // Loopback only and rebuilt with the package: revalidating costs nothing and never shows a stale page after an upgrade.
  'Cache-Control': 'no-cache',
};

interface Asset {
  body: Buffer;
  contentType: string;
}

/**
 * The directory of the built dashboard (`dist/dashboard` of the package). This module runs from `dist/` once built
 * (both module formats) and from `src/adapters/` under `npm run mock`, which builds the page into the same place.
 */
function assetDirectory(): string | undefined {
  const { existsSync } = nodeBuiltin('node:fs');
  const { join } = nodeBuiltin('node:path');
  const here = moduleDirectory();
  return [join(here, 'dashboard'), join(here, '..', '..', 'dist', 'dashboard')].find((dir) =>
    existsSync(join(dir, 'index.html')),
  );
}

function moduleDirectory(): string {
  return typeof __dirname === 'string'
    ? __dirname
    : nodeBuiltin('node:path').dirname(nodeBuiltin('node:url').fileURLToPath(import.meta.url));
}

/** Deno's permission API, where the runtime is Deno. */
interface DenoPermissions {
  permissions?: { querySync?(descriptor: { name: 'read'; path?: string }): { state: string } };
}

/**
 * Why the runtime does not let the mock read the dashboard's files, or undefined when it does: Deno without
 * `--allow-read` (its existsSync answers false, its reads throw NotCapable), Node's permission model without
 * `--allow-fs-read` (ERR_ACCESS_DENIED).
 */
export function readRefusal(error: unknown, directory: string): string | undefined {
  const deno = (globalThis as { Deno?: DenoPermissions }).Deno;
  const name = error instanceof Error ? error.name : undefined;
  const code = (error as { code?: unknown } | undefined)?.code;
  const denoDenied =
    name === 'NotCapable' ||
    name === 'PermissionDenied' ||
    (deno !== undefined && deno.permissions?.querySync?.({ name: 'read', path: directory }).state !== 'granted');
  if (denoDenied) {
    return `Deno does not let the mock read the dashboard's files: start it with --allow-read (or --allow-read=${directory}).`;
  }
  if (code === 'ERR_ACCESS_DENIED') {
    return `Node's permission model does not let the mock read the dashboard's files: add --allow-fs-read=${directory}.`;
  }
  return undefined;
}

/** The page's files, or why they cannot be read: a refusal of the runtime is reported, never a bare error. */
function readAssets(): Map<string, Asset> | { refusal: string } {
  try {
    const directory = assetDirectory();
    if (directory) return loadAssets(directory);
    const refusal = readRefusal(undefined, moduleDirectory());
    return refusal === undefined ? new Map() : { refusal };
  } catch (error) {
    const refusal = readRefusal(error, moduleDirectory());
    if (refusal === undefined) throw error;
    return { refusal };
  }
}

/** Reads the page's files once, on the first request for one of them, so a server that is never visited pays nothing. */
function loadAssets(directory: string): Map<string, Asset> {
  const { readdirSync, readFileSync } = nodeBuiltin('node:fs');
  const { extname, join } = nodeBuiltin('node:path');
  const assets = new Map<string, Asset>();
  for (const name of readdirSync(directory)) {
    const contentType = CONTENT_TYPES[extname(name)];
    if (!contentType) continue;
    const body = readFileSync(join(directory, name));
    assets.set(name === 'index.html' ? DASHBOARD_PATH : `${DASHBOARD_ASSET_PATH}${name}`, { body, contentType });
  }
  return assets;
}

const NOT_BUILT = `<!doctype html><meta charset="utf-8"><title>Cardrail mock: dashboard not built</title>
<p>The dashboard's files are missing from this copy of @cardrail/mock-server. In the Cardrail repository, run
<code>npm run build</code> (or start the mock with <code>npm run mock</code>, which builds them); the API is unaffected.</p>`;

/**
 * Answers the dashboard's requests (GET or HEAD of `/` and of its files) and reports whether it did; every other
 * request, all of `/v1` included, is left to the API.
 */
export type DashboardHandler = (incoming: IncomingMessage, outgoing: ServerResponse) => boolean;

export function createDashboardHandler(): DashboardHandler {
  let assets: Map<string, Asset> | undefined;
  return (incoming, outgoing) => {
    const method = incoming.method;
    if (method !== 'GET' && method !== 'HEAD') return false;
    const url = incoming.url ?? '/';
    const query = url.indexOf('?');
    const path = query === -1 ? url : url.slice(0, query);
    if (path !== DASHBOARD_PATH && !path.startsWith(DASHBOARD_ASSET_PATH)) return false;
    if (!assets) {
      const read = readAssets();
      if (read instanceof Map) assets = read;
      else {
        // Not kept: the page reads the files again once the runtime allows it (a restart with the flag).
        console.error(`[cardrail-mock] ${read.refusal}`);
        incoming.resume();
        return answer(outgoing, method, 503, Buffer.from(refusedPage(read.refusal)), CONTENT_TYPES['.html'] as string);
      }
    }
    const asset = assets.get(path);
    if (!asset && !(path === DASHBOARD_PATH && assets.size === 0)) return false;
    incoming.resume();
    const { body, contentType } = asset ?? { body: Buffer.from(NOT_BUILT), contentType: CONTENT_TYPES['.html'] as string };
    return answer(outgoing, method, asset ? 200 : 503, body, contentType);
  };
}

function answer(outgoing: ServerResponse, method: string, status: number, body: Buffer, contentType: string): true {
  outgoing.writeHead(status, { ...SECURITY_HEADERS, 'Content-Type': contentType, 'Content-Length': String(body.length) });
  outgoing.end(method === 'HEAD' ? undefined : body);
  return true;
}

/** The page that says which permission the runtime needs, instead of a bare error; the API is unaffected. */
function refusedPage(refusal: string): string {
  const text = refusal.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return `<!doctype html><meta charset="utf-8"><title>Cardrail mock: dashboard not readable</title>
<p>${text}</p><p>The API under /v1 is unaffected.</p>`;
}
