import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, type CliIo } from '../src/cli/serve-command.js';
import { FROZEN_AT } from './support/keys.js';
import { tempDirs } from './support/temp-dirs.js';

const tempDir = tempDirs('cardrail-cli-');

function captureIo() {
  const lines: string[] = [];
  const signals = new Map<string, () => void>();
  const io: CliIo = {
    out: (text) => lines.push(...text.split('\n').filter(Boolean)),
    onSignal: (signal, handler) => signals.set(signal, handler),
  };
  return { io, lines, signals };
}

describe('cardrail-mock CLI', () => {
  it('starts with the announced address, loads fixtures, honours its flags, and stops on SIGTERM', async () => {
    const dir = tempDir();
    const fixtures = join(dir, 'fixtures.json');
    writeFileSync(
      fixtures,
      JSON.stringify({
        apiKey: 'sk_test_fixtures01',
        seed: 'demo',
        requests: [
          { ref: 'ada', method: 'POST', path: '/customers', body: { email: 'ada@example.com' } },
          { ref: 'bot', method: 'POST', path: '/agents', body: { customerId: '{{ada.id}}', name: 'Bot' } },
          { method: 'POST', path: '/cards', body: { customerId: '{{ada.id}}', agentId: '{{bot.id}}' } },
        ],
      }),
    );
    const { io, lines, signals } = captureIo();
    const started = await runCli(
      ['--port', '0', '--frozen-clock', FROZEN_AT, '--rate-limit', '2', '--fixtures', fixtures, '--log'],
      io,
    );
    if (!started) throw new Error('the CLI did not start');
    const { running, stopped } = started;
    expect(lines).toContain(`Cardrail mock server listening on ${running.url}`);
    expect(running.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    expect(lines).toContain('Loaded 3 fixture requests (2 named)');

    const headers = { Authorization: 'Bearer sk_test_fixtures01' };
    const cards = await fetch(`${running.url}/cards`, { headers });
    expect(cards.status).toBe(200);
    const body = (await cards.json()) as { data: { createdAt: string }[] };
    expect(body.data).toHaveLength(1);
    expect(body.data[0]?.createdAt).toBe(FROZEN_AT);
    expect(cards.headers.get('ratelimit-limit')).toBe('2');
    expect((await fetch(`${running.url}/cards`, { headers })).status).toBe(200);
    expect((await fetch(`${running.url}/cards`, { headers })).status).toBe(429);
    expect(lines.some((line) => /^GET \/v1\/cards 200 [\d.]+ms req_/.test(line))).toBe(true);

    signals.get('SIGTERM')?.();
    await stopped;
    await expect(fetch(`${running.url}/cards`, { headers })).rejects.toThrow();
  });

  it('prints help, and refuses bad flags', async () => {
    const { io, lines } = captureIo();
    expect(await runCli(['--help'], io)).toBeUndefined();
    expect(lines[0]).toBe('Usage: cardrail-mock [options]');
    await expect(runCli(['--port', 'x'], io)).rejects.toThrow(/--port/);
    await expect(runCli(['--frozen-clock', 'yesterday'], io)).rejects.toThrow(/--frozen-clock/);
    await expect(runCli(['--rate-limit', 'fast'], io)).rejects.toThrow(/Rate limit/);
    await expect(runCli(['--colour'], io)).rejects.toThrow();
  });

  it('gives the same ids on every start when the fixtures carry a seed', async () => {
    const dir = tempDir();
    const fixtures = join(dir, 'fixtures.json');
    writeFileSync(
      fixtures,
      JSON.stringify({
        apiKey: 'sk_test_fixtures02',
        seed: 'same',
        requests: [{ method: 'POST', path: '/customers', body: { email: 'a@b.co' } }],
      }),
    );
    const ids: string[] = [];
    for (let i = 0; i < 2; i++) {
      const { io, signals } = captureIo();
      const started = await runCli(['--port', '0', '--fixtures', fixtures], io);
      if (!started) throw new Error('the CLI did not start');
      const list = await fetch(`${started.running.url}/customers`, { headers: { Authorization: 'Bearer sk_test_fixtures02' } });
      ids.push(((await list.json()) as { data: { id: string }[] }).data[0]?.id ?? '');
      signals.get('SIGINT')?.();
      await started.stopped;
    }
    expect(ids[0]).toMatch(/^cus_/);
    expect(ids[1]).toBe(ids[0]);
  });
});
