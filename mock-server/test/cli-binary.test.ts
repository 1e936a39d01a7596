// The published binary, run the way a user runs it: a separate process that announces its address, serves the API
// and stops cleanly on SIGINT and SIGTERM. Uses the built dist/ (the root `npm test` builds before testing).
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const bin = fileURLToPath(new URL('../dist/cli.mjs', import.meta.url));
const children: ChildProcessWithoutNullStreams[] = [];

async function start(args: string[]): Promise<{ child: ChildProcessWithoutNullStreams; url: string; output: () => string }> {
  const child = spawn(process.execPath, [bin, ...args], { stdio: 'pipe' });
  children.push(child);
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const onData = () => {
      const match = /Cardrail mock server listening on (http:\/\/\S+\/v1)/.exec(output);
      if (match?.[1]) resolve(match[1]);
    };
    child.stdout.on('data', onData);
    child.once('exit', (code) => reject(new Error(`cardrail-mock exited with ${code} before listening:\n${output}`)));
  });
  return { child, url, output: () => output };
}

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

describe('the cardrail-mock binary', () => {
  it.each(['SIGINT', 'SIGTERM'] as const)('serves the API and exits 0 on %s', async (signal) => {
    const { child, url, output } = await start(['--port', '0', '--host', '127.0.0.1', '--log']);
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

    const exited = once(child, 'exit');
    child.kill(signal);
    const [code] = (await exited) as [number | null];
    expect(code).toBe(0);
    // --log wrote one line per request.
    expect(output().match(/\/v1\/customers/g)?.length).toBeGreaterThanOrEqual(2);
  });

  it('refuses an unknown flag with a usage message and a non-zero exit', async () => {
    const child = spawn(process.execPath, [bin, '--no-such-flag'], { stdio: 'pipe' });
    children.push(child);
    let output = '';
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code).not.toBe(0);
    expect(output).toMatch(/no-such-flag/);
  });
});
