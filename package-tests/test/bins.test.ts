// The packages' command-line tools, run with npx in the user's project.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { consumerDir, installedManifest } from '../support/consumer.js';
import { run } from '../support/run.js';
import { serve } from '../support/serving.js';

const npx = (args: string[]) => run('npx', ['--no-install', ...args], { cwd: consumerDir });

describe('npx cardrail-mock', () => {
  const { version } = installedManifest('@cardrail/mock-server');

  it('--version prints the package version', async () => {
    const result = await npx(['cardrail-mock', '--version']);
    expect(result.code, result.output).toBe(0);
    expect(result.stdout).toBe(`${version}\n`);
  });

  it('--help prints the usage', async () => {
    const result = await npx(['cardrail-mock', '--help']);
    expect(result.code, result.output).toBe(0);
    expect(result.stdout).toMatch(/^Usage: cardrail-mock \[options\]\n/);
    expect(result.stdout).toContain('--fixtures <file>');
  });

  /** Runs `npx cardrail-mock <args>` until it listens, then `use(url)`, then stops it (SIGTERM) and waits. */
  async function serving(args: string[], use: (url: string) => Promise<void>): Promise<void> {
    const mock = await serve('npx', ['--no-install', 'cardrail-mock', '--port', '0', ...args], {
      cwd: consumerDir,
      ready: /listening on (\S+)/,
    });
    try {
      await use(mock.address);
    } finally {
      await mock.stop();
    }
  }

  it('serves the API on a free port until stopped', async () => {
    await serving([], async (url) => {
      const response = await fetch(`${url}/customers`, { headers: { Authorization: 'Bearer sk_test_npxserve01' } });
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ data: [], hasMore: false });
    });
  });

  it('keeps its state in a --state directory across a restart, and checks it with `state check`', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cardrail-npx-state-'));
    const headers = { Authorization: 'Bearer sk_test_npxstate01', 'Content-Type': 'application/json' };
    try {
      let id = '';
      await serving(['--state', dir], async (url) => {
        const created = await fetch(`${url}/customers`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ email: 'ada@example.com' }),
        });
        expect(created.status).toBe(201);
        id = ((await created.json()) as { id: string }).id;
      });
      await serving(['--state', dir], async (url) => {
        expect((await fetch(`${url}/customers/${id}`, { headers })).status).toBe(200);
      });
      const check = await npx(['cardrail-mock', 'state', 'check', dir]);
      expect(check.code, check.output).toBe(0);
      expect(check.stdout).toMatch(/state\.db: ok \(1 organization, \d+ records/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('npx cardrail-mcp', () => {
  it('--version prints the package version', async () => {
    const result = await npx(['cardrail-mcp', '--version']);
    expect(result.code, result.output).toBe(0);
    expect(result.stdout.trim()).toBe(installedManifest('@cardrail/agent-toolkit').version);
  });
});
