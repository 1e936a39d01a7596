// The CLI's option values: each wrong one is refused with a message that says what to pass instead.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import packageJson from '../package.json' with { type: 'json' };
import { type CliIo, runCli } from '../src/cli/serve-command.js';

function captureIo() {
  const lines: string[] = [];
  const io: CliIo = { out: (text) => lines.push(...text.split('\n').filter(Boolean)), onSignal: () => {} };
  return { io, lines };
}

describe('cardrail-mock options', () => {
  it('prints its version', async () => {
    const { io, lines } = captureIo();
    expect(await runCli(['--version'], io)).toBeUndefined();
    expect(lines).toEqual([packageJson.version]);
  });

  it.each(['-1', '65536', '4010x', '', '1e3'])('refuses --port %j with the range and what 0 does', async (port) => {
    const { io } = captureIo();
    await expect(runCli(['--port', port], io)).rejects.toThrow(
      `--port must be a port number from 0 to 65535 (0 picks a free port), got ${port}`,
    );
  });

  it('names a --state directory it cannot create or write, the cause and what to do', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cardrail-state-access-'));
    try {
      const file = join(dir, 'a-file');
      writeFileSync(file, 'not a directory');
      const below = join(file, 'state');
      await expect(runCli(['--port', '0', '--state', below], captureIo().io)).rejects.toThrow(
        `The state directory ${below} cannot be used: a part of the path is a file, not a directory (ENOTDIR). ` +
          'Pass --state a directory this user can create and write (such as ./cardrail-state), or fix that one.',
      );
      await expect(runCli(['--port', '0', '--state', file], captureIo().io)).rejects.toThrow(
        `The state directory ${file} cannot be used: the path is a file, not a directory (EEXIST).`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('says which port is taken and what to do, at once', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const { port } = blocker.address() as { port: number };
    try {
      const { io } = captureIo();
      await expect(runCli(['--port', String(port)], io)).rejects.toThrow(
        `port ${port} on 127.0.0.1 is already in use: pass another --port, or --port 0 for a free one`,
      );
    } finally {
      blocker.close();
    }
  });

  it.each([
    '2026',
    '2026-11-21',
    '2026-11-21T12:00:00',
    'Nov 21 2026 12:00 UTC',
    '2026-02-30T00:00:00Z',
    '2026-11-21T24:00:00Z',
    '2026-13-01T00:00:00Z',
    'yesterday',
  ])('refuses --frozen-clock %j: only ISO 8601 instants', async (instant) => {
    const { io } = captureIo();
    await expect(runCli(['--frozen-clock', instant], io)).rejects.toThrow(
      `--frozen-clock must be an ISO 8601 instant with a time zone, such as 2026-11-21T12:00:00Z; got ${instant}`,
    );
  });

  it.each(['2026-11-21T12:00:00Z', '2026-11-21T12:00Z', '2026-11-21T13:00:00.250+01:00', '2028-02-29T00:00:00z'])(
    'accepts --frozen-clock %j',
    async (instant) => {
      const { io, lines } = captureIo();
      const started = await runCli(['--port', '0', '--frozen-clock', instant], io);
      if (!started) throw new Error('the CLI did not start');
      expect(lines).toContainEqual(expect.stringMatching(/^Cardrail mock server listening on /));
      expect(started.running.mock.clock.frozen).toBe(true);
      await started.running.close();
    },
  );
});
