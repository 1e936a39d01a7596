// The published binary, run the way a user runs it: a separate process that announces its address, serves the API
// and stops cleanly on SIGINT and SIGTERM. Uses the built dist/ (the root `npm test` builds before testing).
import { spawn } from 'node:child_process';
import module from 'node:module';
import { fileURLToPath } from 'node:url';
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

  // What a process loads is seen through module.registerHooks (Node 22.15+); on Node 20 the other tests of this file
  // run the same CommonJS build without seeing which files it loads.
  const registerHooks = (module as { registerHooks?: unknown }).registerHooks;
  it.runIf(typeof registerHooks === 'function')(
    'serves from the CommonJS build on Node, which Node loads sooner than the ES modules (seen with module.registerHooks)',
    async () => {
      const logLoads = fileURLToPath(new URL('./support/log-loaded-modules.mjs', import.meta.url));
      const bin = fileURLToPath(new URL('../dist/cli.mjs', import.meta.url));
      const child = spawn(process.execPath, ['--import', logLoads, bin, '--port', '0', '--no-dashboard'], { stdio: 'pipe' });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      try {
        const url = await new Promise<string>((resolve, reject) => {
          child.stdout.on('data', () => {
            const match = /listening on (http:\/\/\S+\/v1)/.exec(output);
            if (match?.[1]) resolve(match[1]);
          });
          child.once('exit', (code) => reject(new Error(`exited with ${code}:\n${output}`)));
        });
        const listed = await fetch(`${url}/cards?limit=1`, { headers: { Authorization: 'Bearer sk_test_binary0002' } });
        expect(listed.status).toBe(200);
        const loaded = [...output.matchAll(/^loaded (file:\S+\/dist\/\S+)$/gm)].map((match) =>
          match[1]?.replace(/.*\/dist\//, ''),
        );
        expect(loaded).toContain('serve-command.cjs');
        expect(loaded).toContain('spec/customer.parameters.cjs');
        // The bin itself is the only ES module of the package it loads.
        expect(loaded.filter((file) => file?.endsWith('.mjs'))).toEqual(['cli.mjs']);
        // Serving loads nothing of the SDK: its WWW-Authenticate parser waits for the first MPP challenge.
        expect(output).not.toMatch(/^loaded \S*\/sdk\/dist\//m);
      } finally {
        child.kill('SIGTERM');
      }
    },
  );

  it('refuses an unknown flag with a usage message and a non-zero exit', async () => {
    const { code, output } = await runCliToExit(['--no-such-flag']);
    expect(code).not.toBe(0);
    expect(output).toMatch(/no-such-flag/);
  });
});
