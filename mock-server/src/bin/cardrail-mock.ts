#!/usr/bin/env node
import module from 'node:module';
import { type CodeCache, cacheCompiledCode } from './code-cache.js';

/** node:module's compile cache (Node.js 22.1+; absent before, where nothing is cached). */
const compileCache = module as { enableCompileCache?: () => unknown; flushCompileCache?: () => void };
// From the second start on, the mock's code is read already compiled instead of compiled again
// (docs/standalone-server.md#start-up). Node keeps the cache in the system's temporary folder, or where
// NODE_COMPILE_CACHE says, as TypeScript's tsc does. Enabled before the CLI's modules are imported, since only modules
// loaded afterwards are cached.
compileCache.enableCompileCache?.();

const fail = (error: unknown): void => {
  process.stderr.write(`cardrail-mock: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
};
const args = process.argv.slice(2);

if (args[0] === 'trigger') {
  // A client of a running mock: it loads the SDK's clients, which serving never does.
  const { runTriggerCommand } = await import('../cli/trigger-command.js');
  runTriggerCommand(args.slice(1), {
    out: (text) => process.stdout.write(text),
    err: (text) => process.stderr.write(text),
  }).then((code) => {
    process.exitCode = code;
  }, fail);
} else if (args[0] === 'state') {
  const { runStateCommand } = await import('../cli/state-command.js');
  // The exit code is set, not forced: an export written to standard output is flushed before the process ends.
  runStateCommand(args.slice(1), {
    out: (text) => process.stdout.write(text),
    err: (text) => process.stderr.write(text),
  }).then((code) => {
    process.exitCode = code;
  }, fail);
} else {
  const commonJs = commonJsServeCommand();
  const { runCli } = commonJs?.command ?? (await import('../cli/serve-command.js'));
  const codeCache = commonJs?.codeCache;
  runCli(args).then(async (started) => {
    if (!started) return;
    // Written now, not only at exit: a server ended by SIGKILL still starts faster next time.
    compileCache.flushCompileCache?.();
    // The server's own code once it has answered (a test suite's first requests come within a second), or at its
    // exit; a run that serves nothing (--help, a refused option) writes none, which would lack what an answer runs.
    if (codeCache) {
      const { save } = codeCache;
      setTimeout(save, 2_000).unref();
      process.once('exit', save);
    }
    await started.stopped;
    process.exit(0);
  }, fail);
}

/**
 * On Node.js itself, the server's CommonJS build (dist/serve-command.cjs, beside this file), which Node loads sooner
 * than the same code as ES modules: about 15M fewer instructions from start to first answer (7 ms of about 100), as
 * `require` links each file as it reads it, where the ES module loader resolves, links and evaluates a graph, and
 * scans each CommonJS data module it imports for its exports. Deno and Bun, and this file bundled without it (the
 * repository's `npm run mock`), load the ES modules. Its code cache (code-cache.ts) is on before its files load.
 */
function commonJsServeCommand():
  | { command: typeof import('../cli/serve-command.js'); codeCache: CodeCache | undefined }
  | undefined {
  const { versions } = process;
  if (versions.deno !== undefined || versions.bun !== undefined) return undefined;
  const requireBeside = module.createRequire(import.meta.url);
  const { existsSync } = requireBeside('node:fs') as typeof import('node:fs');
  if (!existsSync(new URL('./serve-command.cjs', import.meta.url))) return undefined;
  const { fileURLToPath } = requireBeside('node:url') as typeof import('node:url');
  // Before the server's files are required: the cache compiles them as they load.
  const codeCache = cacheCompiledCode(fileURLToPath(new URL('./', import.meta.url)));
  return { command: requireBeside('./serve-command.cjs') as typeof import('../cli/serve-command.js'), codeCache };
}
