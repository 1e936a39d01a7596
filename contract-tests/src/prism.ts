import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { OpenApiDocument } from './spec.js';

const PRISM_BIN = fileURLToPath(new URL('../../node_modules/.bin/prism', import.meta.url));
const DRAFT_2020_12 = 'https://json-schema.org/draft/2020-12/schema';

/**
 * A copy of a bundle that makes Prism validate with JSON Schema 2020-12. Prism (http-spec) stamps every schema with the
 * document's `jsonSchemaDialect` and picks its Ajv instance from that `$schema`; without it, a 3.1 schema is checked as
 * draft-07 (keywords such as `unevaluatedProperties` or `prefixItems` would be silently ignored).
 */
export function writeDocumentFor2020(document: OpenApiDocument, name: string): string {
  return writeDocumentFile({ ...document, jsonSchemaDialect: DRAFT_2020_12 }, name);
}

/** Writes a document to a fresh temporary directory (Prism reads documents from files). */
export function writeDocumentFile(document: OpenApiDocument, name: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'cardrail-prism-')), `${name}.json`);
  writeFileSync(file, JSON.stringify(document));
  return file;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export interface PrismProcess {
  /** Where to send requests; Prism serves the spec's paths without the `/v1` base path. */
  url: string;
  /** Everything Prism printed, for diagnosing a failure. */
  output(): string;
  stop(): Promise<void>;
}

export type PrismCommand = { kind: 'mock'; document: string } | { kind: 'proxy'; document: string; upstream: string };

/**
 * Starts `prism mock` or `prism proxy --errors` on a free port and waits until it answers. Prism runs in its own
 * process group so that stop() ends it and any child it spawned.
 */
export async function startPrism(command: PrismCommand, readyTimeoutMs = 30_000): Promise<PrismProcess> {
  const port = await freePort();
  const args =
    command.kind === 'mock'
      ? ['mock', command.document, '-p', String(port), '-h', '127.0.0.1']
      : ['proxy', command.document, command.upstream, '--errors', '-p', String(port), '-h', '127.0.0.1'];
  const child: ChildProcess = spawn(PRISM_BIN, args, { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  // Prism logs every request; keep the tail only.
  const append = (chunk: Buffer): void => {
    output = (output + chunk.toString()).slice(-200_000);
  };
  child.stdout?.on('data', append);
  child.stderr?.on('data', append);
  let exited = false;
  // A detached group outlives its parent: if the test process ends without stop(), end Prism with it.
  const killOnExit = (): void => {
    try {
      if (!exited && child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  };
  process.once('exit', killOnExit);
  const exit = new Promise<void>((resolve) =>
    child.once('exit', () => {
      exited = true;
      process.off('exit', killOnExit);
      resolve();
    }),
  );

  const stop = async (): Promise<void> => {
    if (exited || child.pid === undefined) return;
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      return;
    }
    const timer = setTimeout(() => {
      try {
        if (!exited && child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }, 3_000);
    await exit;
    clearTimeout(timer);
  };

  const deadline = Date.now() + readyTimeoutMs;
  while (!/Prism is listening/.test(output)) {
    if (exited) throw new Error(`prism ${args.join(' ')} exited before listening:\n${output}`);
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`prism ${args.join(' ')} did not start within ${readyTimeoutMs} ms:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { url: `http://127.0.0.1:${port}`, output: () => output, stop };
}
