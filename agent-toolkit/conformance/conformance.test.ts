// The official MCP conformance suite (@modelcontextprotocol/conformance 0.2.0-alpha.12, Node 22 or later) against
// `cardrail-mcp --transport http` on 127.0.0.1, with the mock behind it: every server scenario of the frozen
// requirement set of both revisions, each run with its expected-failures file (scenarios that cannot apply to a
// tools-only server, each with its reason). The suite calls some tools by name: the bin offers them only with
// CARDRAIL_MCP_CONFORMANCE_FIXTURES=1, a test-only switch, off by default.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WAITS } from '../../scripts/lib/test-waits.mjs';
import { TOOL_NAMES } from '../src/index.js';
import { assertBuilt, BIN } from '../test/support/bin.js';
import { finished, stderrLine } from '../test/support/child.js';
import { startWorld, type World } from '../test/support/world.js';

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const SUITE = join(dirname(require.resolve('@modelcontextprotocol/conformance/package.json')), 'dist', 'index.js');
const REVISIONS = ['2025-11-25', '2026-07-28'] as const;
/** The scenarios that must pass, whatever the expected-failures files say. */
const MUST_PASS: Record<(typeof REVISIONS)[number], string[]> = {
  '2025-11-25': ['server-initialize', 'ping', 'tools-list', 'dns-rebinding-protection'],
  '2026-07-28': ['server-stateless', 'caching', 'tools-list', 'dns-rebinding-protection', 'input-required-result-tampered-state'],
};

let world: World;
let url: string;
let stop: () => Promise<unknown>;

beforeAll(async () => {
  assertBuilt();
  world = await startWorld();
  const child = spawn(
    process.execPath,
    [BIN, '--transport', 'http', '--port', '0', '--agent', world.agentId, '--base-url', world.baseUrl],
    {
      env: { CARDRAIL_API_KEY: world.apiKey, CARDRAIL_MCP_CONFORMANCE_FIXTURES: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const done = finished(child);
  [, url] = (await stderrLine(child, /at (http:\/\/127\.0\.0\.1:[0-9]+\/mcp) \(streamable HTTP\)/)) as [string, string];
  stop = () => {
    child.kill('SIGTERM');
    return done;
  };
}, WAITS.start);

afterAll(async () => {
  await stop?.();
  await world?.close();
});

/** `conformance server --url <url> --requirements <revision> --expected-failures <file>`: its exit status and output. */
function runSuite(revision: string): Promise<{ status: number | null; output: string }> {
  const child = spawn(
    process.execPath,
    [SUITE, 'server', '--url', url, '--requirements', revision, '--expected-failures', expectedFailuresFile(revision)],
    { env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  return finished(child).then(({ status, stdout, stderr }) => ({
    status,
    // biome-ignore lint/suspicious/noControlCharactersInRegex: strips the colours the suite may still print
    output: `${stdout}\n${stderr}`.replace(/\u001b\[[0-9;]*m/g, ''),
  }));
}

const expectedFailuresFile = (revision: string) => join(here, `expected-failures-${revision}.yaml`);

/** The scenarios an expected-failures file lists, each with the reason written beside or above it. */
function expectedFailures(revision: string): { scenario: string; reason: string }[] {
  const lines = readFileSync(expectedFailuresFile(revision), 'utf8').split('\n');
  return lines.flatMap((line, index) => {
    const entry = line.match(/^\s+- ([a-z0-9-]+)\s*(?:#\s*(.*))?$/);
    if (!entry) return [];
    const above = lines[index - 1]?.match(/^\s+#\s*(.*)$/)?.[1];
    return [{ scenario: entry[1] as string, reason: (entry[2] ?? above ?? '').trim() }];
  });
}

describe('the MCP conformance suite against cardrail-mcp --transport http', () => {
  for (const revision of REVISIONS) {
    it(
      `${revision}: every scenario of the requirement set passes but those its expected-failures file lists, each with a reason`,
      async () => {
        const listed = expectedFailures(revision);
        expect(listed.length).toBeGreaterThan(0);
        for (const { scenario, reason } of listed) expect(reason, scenario).toMatch(/\w{3,}/);
        for (const scenario of MUST_PASS[revision]) expect(listed.map((entry) => entry.scenario)).not.toContain(scenario);

        const run = await runSuite(revision);
        expect(run.output).toContain('Baseline check passed: all failures are expected.');
        expect(run.status, run.output.slice(-4000)).toBe(0);
        for (const scenario of MUST_PASS[revision]) {
          expect(run.output, scenario).toMatch(new RegExp(`✓ ${scenario}: [1-9][0-9]* passed, 0 failed`));
        }
      },
      WAITS.test,
    );
  }

  it('offers the fixture tools the suite calls by name beside the catalog, only because the switch is on', async () => {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    const body = await response.text();
    const names = [...body.matchAll(/"name":"([a-z_]+)"/g)].map((match) => match[1]);
    expect(names).toEqual(expect.arrayContaining([...TOOL_NAMES, 'test_input_required_result_tampered_state']));
    // Without the switch (the default) the list is the catalog: test/mcp-http.test.ts and test/mcp-stdio.test.ts.
  });
});
