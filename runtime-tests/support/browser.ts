// A real headless Chromium for tests, with nothing installed on the system: the binary ships inside the npm package
// @sparticuz/chromium and playwright-core drives it. Reusable by any suite: launch a browser, bundle a page with
// esbuild, serve it from a loopback origin, open it and call what it exposes on `window`.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import sparticuz from '@sparticuz/chromium';
import { type Browser, chromium, type ConsoleMessage, type Page } from 'playwright-core';
import { BUNDLE_DIR, type BrowserBuildOptions, bundleForBrowser } from './bundle.js';
import { WAITS } from '../../scripts/lib/test-waits.mjs';

/**
 * Launch flags of @sparticuz/chromium's defaults that these tests drop. The first two switch off the same-origin
 * policy and mixed-content blocking: with them a cross-origin call succeeds whatever the server answers, so a CORS
 * test could not fail. `--single-process` and `--no-zygote` suit a serverless function, not a browser that must run
 * service workers (MSW's `setupWorker`) in their own process as a user's browser does.
 */
export const DROPPED_CHROMIUM_FLAGS = [
  '--disable-web-security',
  '--allow-running-insecure-content',
  '--single-process',
  '--no-zygote',
] as const;

/** The package's default flags minus the dropped ones (a flag is matched by its name, before any `=`). */
export function chromiumLaunchFlags(): string[] {
  const dropped = new Set<string>(DROPPED_CHROMIUM_FLAGS);
  return sparticuz.args.filter((flag) => !dropped.has(flag.split('=')[0] ?? flag));
}

/**
 * Starts headless Chromium. The first launch on a machine unpacks the binary into the temporary folder (a few
 * seconds); a missing or broken package fails here with the reason, never by skipping.
 */
export async function launchChromium(): Promise<Browser> {
  let executablePath: string;
  try {
    executablePath = await sparticuz.executablePath();
  } catch (error) {
    throw new Error(`Chromium could not be unpacked from the npm package @sparticuz/chromium (run \`npm ci\`): ${String(error)}`);
  }
  return chromium.launch({ executablePath, args: chromiumLaunchFlags(), headless: true, timeout: WAITS.start });
}

/** A file a test server answers with. */
export interface StaticFile {
  body: string | Uint8Array;
  contentType: string;
  headers?: Record<string, string>;
}

export interface StaticServer {
  /** `http://<host>:<port>`, the origin of every page it serves. */
  origin: string;
  close(): Promise<void>;
}

/**
 * Serves `files` (by path, such as `/index.html`) on a loopback address. `host` picks the origin's host name:
 * `localhost` and `127.0.0.1` are different origins for the same machine, and both are secure contexts (service
 * workers and Web Crypto need one).
 */
export async function serveStatic(files: ReadonlyMap<string, StaticFile>, host = '127.0.0.1'): Promise<StaticServer> {
  const server: Server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    const file = files.get(path === '/' ? '/index.html' : path);
    if (!file) {
      response.writeHead(404, { 'Content-Type': 'text/plain' }).end(`${path} is not served by this test`);
      return;
    }
    response.writeHead(200, { 'Content-Type': file.contentType, 'Cache-Control': 'no-store', ...file.headers });
    response.end(file.body);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://${host}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** One bundled page: its files to serve and what each weighs. */
export interface BundledPage {
  files: Map<string, StaticFile>;
  /** Per JavaScript file: bytes minified, and gzipped. `entry` marks the script the page loads first. */
  sizes: { file: string; bytes: number; gzipBytes: number; entry: boolean }[];
  /** The source files that went into the bundle (paths relative to the working directory), to check what it holds. */
  inputs: string[];
}

/**
 * Bundles `entry` for browsers with esbuild (ES modules, minified, split so that dynamic imports become chunks a
 * page loads when needed), and an `index.html` that loads it.
 */
export async function bundlePage(entry: string, options: BrowserBuildOptions = {}): Promise<BundledPage> {
  const result = await bundleForBrowser({ entryPoints: { page: entry }, ...options });
  const files = new Map<string, StaticFile>();
  const sizes: BundledPage['sizes'] = [];
  for (const output of result.outputFiles) {
    const name = output.path.slice(BUNDLE_DIR.length);
    files.set(name, { body: output.contents, contentType: 'text/javascript' });
    sizes.push({
      file: name.slice(1),
      bytes: output.contents.length,
      gzipBytes: gzipSync(output.contents, { level: 9 }).length,
      entry: name === '/page.js',
    });
  }
  files.set('/index.html', {
    body: '<!doctype html><meta charset="utf-8"><title>Cardrail runtime test</title><script type="module" src="/page.js"></script>',
    contentType: 'text/html; charset=utf-8',
  });
  return { files, sizes, inputs: Object.keys(result.metafile.inputs) };
}

/** A size table for the test output: each script, and the total a page loads at first and in all. */
export function formatSizes(title: string, sizes: BundledPage['sizes']): string {
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} kB`;
  const rows = [...sizes].sort((a, b) => Number(b.entry) - Number(a.entry) || b.bytes - a.bytes);
  const total = (list: typeof sizes) =>
    [list.reduce((s, r) => s + r.bytes, 0), list.reduce((s, r) => s + r.gzipBytes, 0)] as const;
  const [allBytes, allGzip] = total(sizes);
  const entry = sizes.find((row) => row.entry);
  return [
    `${title}: ${kb(allBytes)} minified (${kb(allGzip)} gzip) in ${sizes.length} files; the entry script ${kb(entry?.bytes ?? 0)} (${kb(entry?.gzipBytes ?? 0)} gzip), the rest loaded on demand`,
    ...rows.map(
      (row) =>
        `  ${row.entry ? '*' : ' '} ${row.file.padEnd(48)} ${kb(row.bytes).padStart(10)} ${kb(row.gzipBytes).padStart(10)} gzip`,
    ),
  ].join('\n');
}

/** A page whose console errors and uncaught exceptions are kept, for assertions and for failure messages. */
export interface OpenedPage {
  page: Page;
  /** Console messages of type error, and uncaught exceptions, in order. */
  errors: string[];
}

/** Opens `url` in a fresh context (no shared cache, cookies or service workers) and waits for `ready` on window. */
export async function openPage(browser: Browser, url: string, ready = 'cardrailReady'): Promise<OpenedPage> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (message: ConsoleMessage) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(`uncaught: ${error.message}`));
  await page.goto(url);
  try {
    await page.waitForFunction((name) => (window as unknown as Record<string, unknown>)[name] === true, ready, {
      timeout: WAITS.start,
    });
  } catch (error) {
    throw new Error(`${url} never set window.${ready}: ${String(error)}\npage errors:\n${errors.join('\n')}`);
  }
  return { page, errors };
}
