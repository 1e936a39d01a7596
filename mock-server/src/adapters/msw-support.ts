// Whether the msw this package imports can serve the mock's handlers where they run. The peer range allows msw 2.15+
// and 3, but npm only warns about engines and `--force` or `--legacy-peer-deps` install any msw: a handler that the
// installed msw cannot serve must fail when it is created, never leave a suite sending its requests to the network
// (the SDK's default base URL is production).

/** What `http` of the installed msw looks like here: `all` makes a handler, undefined when msw has no `http`. */
interface MswHttp {
  all?: (path: string, resolver: () => undefined) => object;
}

/** Node.js's version when this runs on Node (or a runtime that reports one, as Bun and Deno do), else undefined. */
function nodeVersion(): string | undefined {
  return (globalThis as { process?: { versions?: { node?: string } } }).process?.versions?.node;
}

const MSW_3_NODE = [22, 12] as const;

/** Throws, with what to install, when the installed msw cannot serve the handlers in this runtime. */
export function assertMswCanServe(http: MswHttp | undefined, node: string | undefined = nodeVersion()): void {
  if (typeof http?.all !== 'function') {
    throw new Error(
      '@cardrail/mock-server/msw needs msw 2 (2.15 or newer) or msw 3, and the installed msw has no `http` handlers ' +
        '(msw 1 or older). Install msw 3 (`npm install --save-dev msw@^3`, Node.js 22.12 or newer) or msw 2 ' +
        '(`npm install --save-dev msw@^2.15.0`, Node.js 20).',
    );
  }
  // msw 3's handlers have a `dispose` method (its Handler base class); msw 2's do not. Nothing is registered here.
  const isMsw3 = typeof (http.all('http://127.0.0.1/', () => undefined) as { dispose?: unknown }).dispose === 'function';
  if (isMsw3 && node !== undefined && olderThan(node, MSW_3_NODE)) {
    throw new Error(
      `@cardrail/mock-server/msw: msw 3 cannot intercept requests on Node.js ${node} (it needs Node.js ` +
        `${MSW_3_NODE.join('.')} or newer): its interceptors fail there, and the mock's handlers would never see a ` +
        'request. Install msw 2 for this Node.js (`npm install --save-dev msw@^2.15.0`), or run on Node.js 22.12 or ' +
        'newer (24 LTS) with msw 3.',
    );
  }
}

function olderThan(version: string, [major, minor]: readonly [number, number]): boolean {
  const [have = 0, haveMinor = 0] = version.split('.').map(Number);
  return have < major || (have === major && haveMinor < minor);
}
