// How the Node server serves the dashboard (the page itself is tested in a real browser in dashboard/test): what a
// browser receives at `/` and for each file, the headers that keep the page to its own origin, and that everything
// else, /v1 above all, answers exactly as without a dashboard.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DASHBOARD_CSP, readRefusal } from '../src/adapters/dashboard-assets.js';
import { type RunningMockServer, startMockServer } from '../src/adapters/node.js';
import { type CliIo, runCli } from '../src/cli/serve-command.js';
import { newKey } from './support/keys.js';

const packageRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const origin = (running: RunningMockServer) => running.url.replace(/\/v1$/, '');

describe('the dashboard served by startMockServer()', () => {
  let running: RunningMockServer;
  beforeAll(async () => {
    running = await startMockServer({ port: 0 });
  });
  afterAll(() => running.close());

  it('answers / with the page, its Content-Security-Policy and no-sniff headers', async () => {
    expect(running.dashboardUrl).toBe(`${origin(running)}/`);
    const page = await fetch(`${origin(running)}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toBe(DASHBOARD_CSP);
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    const html = await page.text();
    expect(html).toContain('<title>Cardrail mock dashboard</title>');
    // A query string (a person's bookmark, a cache buster) still gets the page.
    expect((await fetch(`${origin(running)}/?from=bookmark`)).status).toBe(200);
  });

  it('allows only its own origin: every directive is self or none, and nothing inline', () => {
    const directives = new Map(
      DASHBOARD_CSP.split(';').map((directive) => {
        const [name = '', ...sources] = directive.trim().split(/\s+/);
        return [name, sources] as const;
      }),
    );
    expect(directives.get('default-src')).toEqual(["'none'"]);
    for (const name of ['script-src', 'style-src', 'img-src', 'connect-src', 'form-action']) {
      expect(directives.get(name), name).toEqual(["'self'"]);
    }
    expect(directives.get('frame-ancestors')).toEqual(["'none'"]);
    expect(DASHBOARD_CSP).not.toMatch(/unsafe-|data:|https?:|\*/);
  });

  it('links only files of its own origin from the page, and carries no inline script or style', async () => {
    const html = await (await fetch(`${origin(running)}/`)).text();
    const references = [...html.matchAll(/\s(?:src|href)="([^"]*)"/g)].map((match) => match[1]);
    expect(references.length).toBeGreaterThanOrEqual(3);
    for (const reference of references) expect(reference, reference).toMatch(/^\/dashboard\/[\w.-]+$/);
    expect(html).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/);
    expect(html).not.toMatch(/<style|\sstyle=|\son[a-z]+=/i);
    for (const reference of references) {
      const asset = await fetch(`${origin(running)}${reference}`);
      expect(asset.status, reference).toBe(200);
      expect(asset.headers.get('content-security-policy')).toBe(DASHBOARD_CSP);
    }
  });

  it('serves each file with its content type and length, and HEAD without a body', async () => {
    const expected: Record<string, string> = {
      '/dashboard/app.js': 'text/javascript; charset=utf-8',
      '/dashboard/app.css': 'text/css; charset=utf-8',
      '/dashboard/favicon.svg': 'image/svg+xml',
    };
    for (const [path, type] of Object.entries(expected)) {
      const asset = await fetch(`${origin(running)}${path}`);
      expect(asset.status, path).toBe(200);
      expect(asset.headers.get('content-type'), path).toBe(type);
      const body = new Uint8Array(await asset.arrayBuffer());
      expect(body.length).toBeGreaterThan(0);
      expect(asset.headers.get('content-length')).toBe(String(body.length));
      expect(body).toEqual(new Uint8Array(readFileSync(join(packageRoot, 'dist', path))));
    }
    const head = await fetch(`${origin(running)}/dashboard/app.js`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(Number(head.headers.get('content-length'))).toBeGreaterThan(1000);
    expect(await head.text()).toBe('');
  });

  it('leaves every other path and method to the API: 404 in its format, /v1 unchanged', async () => {
    for (const path of ['/dashboard/missing.js', '/dashboard/', '/dashboard/../package.json', '/index.html', '/favicon.ico']) {
      const answer = await fetch(`${origin(running)}${path}`);
      expect(answer.status, path).toBe(404);
      expect(answer.headers.get('content-security-policy'), path).toBeNull();
      expect(await answer.json(), path).toEqual({ error: 'not_found' });
    }
    const post = await fetch(`${origin(running)}/`, {
      method: 'POST',
      body: '{}',
      headers: { 'Content-Type': 'application/json' },
    });
    expect(post.status).toBe(404);
    expect(post.headers.get('content-security-policy')).toBeNull();

    const key = newKey();
    const created = await fetch(`${running.url}/customers`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: 'ada@example.com' }),
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('content-security-policy')).toBeNull();
    const unauthorized = await fetch(`${running.url}/customers`);
    expect(unauthorized.status).toBe(401);
  });
});

describe('turning the dashboard off', () => {
  it('dashboard: false leaves / to the API (404), and reports no dashboard URL', async () => {
    const running = await startMockServer({ port: 0, dashboard: false });
    try {
      expect(running.dashboardUrl).toBeUndefined();
      for (const path of ['/', '/dashboard/app.js']) {
        const answer = await fetch(`${origin(running)}${path}`);
        expect(answer.status, path).toBe(404);
        expect(await answer.json()).toEqual({ error: 'not_found' });
      }
    } finally {
      await running.close();
    }
  });

  it('the CLI prints the dashboard URL beside the API URL, and --no-dashboard turns it off', async () => {
    for (const flags of [[], ['--no-dashboard']]) {
      const lines: string[] = [];
      const signals = new Map<string, () => void>();
      const io: CliIo = {
        out: (text) => lines.push(...text.split('\n').filter(Boolean)),
        onSignal: (signal, handler) => signals.set(signal, handler),
      };
      const started = await runCli(['--port', '0', ...flags], io);
      if (!started) throw new Error('the CLI did not start');
      const root = origin(started.running);
      const page = await fetch(`${root}/`);
      if (flags.length === 0) {
        expect(lines).toEqual([`Cardrail mock server listening on ${started.running.url}`, `Dashboard: ${root}/`]);
        expect(page.status).toBe(200);
      } else {
        expect(lines).toEqual([`Cardrail mock server listening on ${started.running.url}`]);
        expect(page.status).toBe(404);
      }
      signals.get('SIGTERM')?.();
      await started.stopped;
    }
  });
});

describe('the package', () => {
  it('ships the built dashboard in dist/dashboard', () => {
    const [packed] = JSON.parse(
      execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: packageRoot, encoding: 'utf8' }),
    ) as { files: { path: string }[] }[];
    const files = new Set(packed?.files.map((file) => file.path));
    for (const name of ['index.html', 'app.js', 'app.css', 'favicon.svg']) expect(files).toContain(`dist/dashboard/${name}`);
  });
});

describe('a runtime that may not read the dashboard', () => {
  it("names the flag to add for Deno's and Node's permission refusals, and nothing for other errors", () => {
    const notCapable = Object.assign(new Error('Requires read access to "/pkg/dist/dashboard"'), { name: 'NotCapable' });
    expect(readRefusal(notCapable, '/pkg/dist')).toBe(
      "Deno does not let the mock read the dashboard's files: start it with --allow-read (or --allow-read=/pkg/dist).",
    );
    const nodeDenied = Object.assign(new Error('Access to this API has been restricted'), { code: 'ERR_ACCESS_DENIED' });
    expect(readRefusal(nodeDenied, '/pkg/dist')).toBe(
      "Node's permission model does not let the mock read the dashboard's files: add --allow-fs-read=/pkg/dist.",
    );
    expect(readRefusal(Object.assign(new Error('no such file'), { code: 'ENOENT' }), '/pkg/dist')).toBeUndefined();
    expect(readRefusal(undefined, '/pkg/dist')).toBeUndefined();
  });
});
