// `prism mock` of our customer document: what a user would pick instead of our mock. Prism answers the spec's
// examples (it keeps no state) on the spec's paths WITHOUT the /v1 base path. The document is the bundle with
// `jsonSchemaDialect` set to 2020-12, as contract-tests/ runs it (otherwise Prism validates 3.1 schemas as draft-07).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../lib/free-port.mjs';
import { customerSpec, prismBin } from '../lib/paths.mjs';
import { startServer } from '../lib/server-process.mjs';

export const PRISM_BASE_PATH = '';
export const prismProbe = { path: '/cards?limit=1', headers: { authorization: 'Bearer sk_test_benchprobe01' } };

let documentFile;
function prismDocument() {
  if (documentFile) return documentFile;
  const directory = mkdtempSync(join(tmpdir(), 'cardrail-bench-prism-'));
  process.once('exit', () => rmSync(directory, { recursive: true, force: true }));
  const document = JSON.parse(readFileSync(customerSpec, 'utf8'));
  documentFile = join(directory, 'customer.json');
  writeFileSync(documentFile, JSON.stringify({ ...document, jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema' }));
  return documentFile;
}

/**
 * `quiet: false` is Prism as a user starts it (info logging; here to /dev/null, which is cheaper than a terminal);
 * `quiet: true` adds `-v silent --errors false`, Prism at its fastest.
 */
export async function startPrism({ quiet = false, pollMs } = {}) {
  const port = await freePort();
  const args = ['mock', prismDocument(), '-p', String(port), '-h', '127.0.0.1'];
  if (quiet) args.push('-v', 'silent', '--errors', 'false');
  return startServer({
    name: quiet ? 'prism mock -v silent' : 'prism mock',
    command: prismBin,
    args,
    origin: `http://127.0.0.1:${port}`,
    probe: prismProbe,
    stdout: 'ignore',
    pollMs,
  });
}
