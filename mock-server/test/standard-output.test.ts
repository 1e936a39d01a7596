import { createRequire } from 'node:module';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { writeStandardOutput } from '../src/cli/standard-output.js';

// The module object node:fs is, the one the CLI's writes go through (process.getBuiltinModule returns the same).
const fs = createRequire(import.meta.url)('node:fs') as typeof import('node:fs');

afterEach(() => vi.restoreAllMocks());

describe("the CLI's standard output", () => {
  it('writes to descriptor 1 directly, and on a write that fails hands the rest and every later line to process.stdout, in order', () => {
    const written: string[] = [];
    const decoder = new TextDecoder();
    let calls = 0;
    vi.spyOn(fs, 'writeSync').mockImplementation(((fd: number, bytes: Uint8Array, offset?: number | null) => {
      offset ??= 0;
      expect(fd).toBe(1);
      calls++;
      // The first line goes whole; the second stops after 4 bytes, then the pipe is full.
      if (calls === 3) throw Object.assign(new Error('EAGAIN: resource temporarily unavailable, write'), { code: 'EAGAIN' });
      const length = calls === 2 ? 4 : bytes.length - offset;
      written.push(decoder.decode(bytes.subarray(offset, offset + length)));
      return length;
    }) as typeof fs.writeSync);
    const stream = vi.spyOn(process.stdout, 'write').mockImplementation(((chunk: string | Uint8Array) => {
      written.push(typeof chunk === 'string' ? chunk : decoder.decode(chunk));
      return true;
    }) as typeof process.stdout.write);

    writeStandardOutput('listening on http://127.0.0.1:4010/v1\n');
    writeStandardOutput('Dashboard: http://127.0.0.1:4010/\n');
    writeStandardOutput('GET /v1/cards 200\n');

    expect(written.join('')).toBe(
      'listening on http://127.0.0.1:4010/v1\nDashboard: http://127.0.0.1:4010/\nGET /v1/cards 200\n',
    );
    expect(calls).toBe(3);
    expect(stream).toHaveBeenCalledTimes(2);
  });
});
