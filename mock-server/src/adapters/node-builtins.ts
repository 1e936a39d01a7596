import { createRequire } from 'node:module';

/** The built-in modules the Node server and the CLI load at start or on their first use. */
interface NodeBuiltins {
  'node:dns': typeof import('node:dns');
  'node:fs': typeof import('node:fs');
  'node:http': typeof import('node:http');
  'node:https': typeof import('node:https');
  'node:net': typeof import('node:net');
  'node:path': typeof import('node:path');
  'node:url': typeof import('node:url');
  'node:util': typeof import('node:util');
}

type GetBuiltinModule = (name: string) => unknown;
const getBuiltinModule: GetBuiltinModule =
  (process as { getBuiltinModule?: GetBuiltinModule }).getBuiltinModule ?? createRequire(process.execPath);

/**
 * A built-in module itself, synchronously, without the ES module facade that `import ... from 'node:http'` builds:
 * the facade reads every export, and node:http's lazy `WebSocket` and `EventSource` exports load undici with it,
 * a sixth of the server's start-up (docs/standalone-server.md#start-up), and node:util's lazy `TextDecoder` loads
 * worker_threads.
 * `process.getBuiltinModule` (Node.js 20.16+ and 22.3+), else `require`.
 */
export function nodeBuiltin<Name extends keyof NodeBuiltins>(name: Name): NodeBuiltins[Name] {
  // The name is one of the keys above, whose module is the type it maps to.
  return getBuiltinModule(name) as NodeBuiltins[Name];
}
