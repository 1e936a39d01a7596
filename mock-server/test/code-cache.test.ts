// The CLI's code cache (src/bin/code-cache.ts): the server's own code, compiled until its first answers, kept in
// Node's compile cache folder for the next start; used when it fits, made again when V8 refuses it, never read from a
// folder others may write to, and off with Node's own cache.
import { chmodSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import module from 'node:module';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { killChildren, runCliToExit, startCli } from './support/cli-process.js';
import { tempDirs } from './support/temp-dirs.js';

afterEach(() => killChildren());
const newDir = tempDirs('cardrail-code-cache-');

/** Starts the CLI with Node's compile cache in `base`, answers one request, and stops it as a user would. */
async function serveOnce(env: NodeJS.ProcessEnv): Promise<void> {
  const server = await startCli(['--port', '0', '--no-dashboard'], undefined, env);
  const listed = await fetch(`${server.url}/cards?limit=1`, { headers: { Authorization: 'Bearer sk_test_codecache01' } });
  expect(listed.status).toBe(200);
  expect(await server.stop('SIGTERM')).toBe(0);
}

/** The folder of the cache under Node's versioned compile cache folder in `base` (one per Node and V8 flags). */
function cacheFolder(base: string): string {
  const [versioned] = readdirSync(base);
  if (versioned === undefined) throw new Error(`nothing in ${base}`);
  return join(base, versioned, 'cardrail-mock');
}

const entries = (folder: string) => readdirSync(folder).sort();

// module.getCompileCacheDir is Node 22.8+: before it, the CLI keeps no cache of its own (Node 20 runs the other CLI tests).
const hasCompileCacheDir = typeof (module as { getCompileCacheDir?: unknown }).getCompileCacheDir === 'function';

describe.runIf(hasCompileCacheDir)('the CLI code cache', () => {
  it('is written by a server that answered, read by the next start, and made again when V8 refuses it', async () => {
    const base = newDir();
    const env = { ...process.env, NODE_COMPILE_CACHE: base };
    await serveOnce(env);
    const folder = cacheFolder(base);
    expect(statSync(folder).mode & 0o777).toBe(0o700);
    const written = entries(folder);
    expect(written.some((name) => name.includes('.serve-command.cjs-'))).toBe(true);
    const mainChunk = written.find((name) => /\.mock-server-[\w-]+\.cjs-/.test(name));
    if (mainChunk === undefined) throw new Error(`no entry of the main chunk in ${written.join(', ')}`);
    expect(statSync(join(folder, mainChunk)).mode & 0o777).toBe(0o600);
    const before = statSync(join(folder, mainChunk)).mtimeMs;

    // Read, not written again: V8 took it.
    await serveOnce(env);
    expect(entries(folder)).toEqual(written);
    expect(statSync(join(folder, mainChunk)).mtimeMs).toBe(before);

    // Damaged: refused by V8, the server still answers, and the entry is made again.
    writeFileSync(join(folder, mainChunk), 'not a code cache');
    await serveOnce(env);
    expect(readFileSync(join(folder, mainChunk)).length).toBeGreaterThan(10_000);
  });

  it('is not written by a run that serves nothing, nor with Node’s cache off', async () => {
    const base = newDir();
    expect((await runCliToExit(['--help'], { ...process.env, NODE_COMPILE_CACHE: base })).code).toBe(0);
    expect(entries(cacheFolder(base))).toEqual([]);

    const off = newDir();
    await serveOnce({ ...process.env, NODE_COMPILE_CACHE: off, NODE_DISABLE_COMPILE_CACHE: '1' });
    expect(readdirSync(off)).toEqual([]);
  });

  it.runIf(typeof process.getuid === 'function')('is neither read nor written in a folder others may write to', async () => {
    const base = newDir();
    const env = { ...process.env, NODE_COMPILE_CACHE: base };
    await serveOnce(env);
    const folder = cacheFolder(base);
    const written = entries(folder);
    expect(written.length).toBeGreaterThan(0);
    // Planted: code others could have written. The server ignores the folder and still answers.
    for (const name of written) writeFileSync(join(folder, name), 'planted');
    chmodSync(folder, 0o777);
    await serveOnce(env);
    for (const name of written) expect(readFileSync(join(folder, name), 'utf8')).toBe('planted');
  });
});
