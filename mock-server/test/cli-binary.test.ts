// The published binary, run the way a user runs it: a separate process that announces its address, serves the API
// and stops cleanly on SIGINT and SIGTERM. Uses the built dist/ (the root `npm test` builds before testing).
import { afterEach, describe, expect, it } from 'vitest';
import { killChildren, runCliToExit, startCli } from './support/cli-process.js';

afterEach(() => killChildren());

describe('the cardrail-mock binary', () => {
  it.each(['SIGINT', 'SIGTERM'] as const)('serves the API and exits 0 on %s', async (signal) => {
    const { child, url, output, stop } = await startCli(['--port', '0', '--host', '127.0.0.1', '--log']);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    const created = await fetch(`${url}/customers`, {
      method: 'POST',
      headers: { Authorization: 'Bearer sk_test_binary0001', 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: 'ada@example.com' }),
    });
    expect(created.status).toBe(201);
    expect(((await created.json()) as { id: string }).id).toMatch(/^cus_/);
    const unauthorized = await fetch(`${url}/customers`);
    expect(unauthorized.status).toBe(401);

    expect(child.exitCode).toBeNull();
    expect(await stop(signal)).toBe(0);
    // --log wrote one line per request.
    expect(output().match(/\/v1\/customers/g)?.length).toBeGreaterThanOrEqual(2);
  });

  it('refuses an unknown flag with a usage message and a non-zero exit', async () => {
    const { code, output } = await runCliToExit(['--no-such-flag']);
    expect(code).not.toBe(0);
    expect(output).toMatch(/no-such-flag/);
  });
});
