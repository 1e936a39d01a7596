/**
 * node:crypto where the runtime offers it through `process.getBuiltinModule` (Node 20.16+, Bun, Deno), found at run
 * time so that no bundle for a browser or an edge runtime contains a `node:` import; undefined elsewhere, where the
 * core falls back to web standards (sha256.ts, ids.ts).
 *
 * Loading it costs about 8 ms, a tenth of a standalone server's start to its first answer, and nothing a first answer
 * needs requires it: the same digests come from @noble/hashes (sha256.ts), and random bytes come from Web Crypto
 * (ids.ts). So it is loaded shortly after its first use (`nodeCryptoWhenLoaded`), and used from then on.
 */
type NodeCrypto = typeof import('node:crypto');

interface RuntimeProcess {
  versions?: Record<string, string | undefined>;
  getBuiltinModule?: (id: string) => unknown;
}

const runtimeProcess = (globalThis as { process?: RuntimeProcess }).process;
const getBuiltinModule = runtimeProcess?.getBuiltinModule;
/** Node itself defers the load; other runtimes with a node:crypto (Deno, Bun) load it when first asked, as before. */
const defers = isNodeItself(runtimeProcess);
let loaded: NodeCrypto | undefined;
let scheduled = false;

/**
 * How long after its first use node:crypto is loaded: past a server's first answer (about 100 ms from its start), even
 * when that answer waits on the way (its operation's checks loading from disk, during which a shorter timer would run).
 */
const LOAD_AFTER_MS = 250;

/** node:crypto, loaded now if it is not yet; undefined where the runtime has none. */
export function nodeCrypto(): NodeCrypto | undefined {
  loaded ??= getBuiltinModule?.('node:crypto') as NodeCrypto | undefined;
  return loaded;
}

/** node:crypto once it is loaded; before that undefined, and it is loaded on a timer, once a first answer is out. */
export function nodeCryptoWhenLoaded(): NodeCrypto | undefined {
  if (loaded !== undefined || getBuiltinModule === undefined) return loaded;
  if (!defers) return nodeCrypto();
  if (!scheduled) {
    scheduled = true;
    const timer = setTimeout(nodeCrypto, LOAD_AFTER_MS) as { unref?: () => void };
    // Never what keeps a process alive.
    timer.unref?.();
  }
  return undefined;
}

/** Whether this is Node.js itself, not a runtime that imitates its `process` (Deno, Bun). */
function isNodeItself(process: RuntimeProcess | undefined): boolean {
  const versions = process?.versions;
  return versions?.node !== undefined && versions.deno === undefined && versions.bun === undefined;
}
