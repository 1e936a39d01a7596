// Starts the bare node:http ceiling (bare-http-server.mjs) with routes captured from our mock.
import { fileURLToPath } from 'node:url';
import { freePort } from '../lib/free-port.mjs';
import { startServer } from '../lib/server-process.mjs';

const script = fileURLToPath(new URL('./bare-http-server.mjs', import.meta.url));

/**
 * `routes`: [{ method, path ('/v1/cards/*'), status, contentType, body (string) }]. `probePath` must be one of them
 * (a GET).
 */
export async function startBareServer({ routes, probePath }) {
  const port = await freePort();
  return startServer({
    name: 'bare node:http',
    command: process.execPath,
    args: [script, String(port)],
    input: JSON.stringify(routes),
    origin: `http://127.0.0.1:${port}`,
    probe: { path: probePath, headers: {} },
  });
}
