// Every public entry point of the installed packages loads in Node, by ESM import and by CommonJS require, and
// gives the same exports both ways.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { consumerDir, publicEntries } from '../support/consumer.js';
import { run } from '../support/run.js';

/** The export each entry point exists for; a new entry point must be added here to be checked. */
const MAIN_EXPORT: Record<string, string> = {
  '@cardrail/sdk': 'Cardrail',
  '@cardrail/sdk/webhooks': 'constructEvent',
  '@cardrail/sdk/www-authenticate': 'parseWwwAuthenticate',
  '@cardrail/mock-server': 'createMockServer',
  '@cardrail/mock-server/msw': 'createHandlers',
  '@cardrail/mock-server/node': 'startMockServer',
  '@cardrail/mock-server/merchants': 'createMppCardMerchant',
  '@cardrail/agent-toolkit': 'createCardrailToolkit',
  '@cardrail/agent-toolkit/ai-sdk': 'toAISDKTools',
  '@cardrail/agent-toolkit/openai-agents': 'toOpenAIAgentsTools',
  '@cardrail/agent-toolkit/mcp': 'createCardrailMcpServer',
  '@cardrail/agent-toolkit/mcp/node': 'serveStdio',
};

type Loaded = Record<string, { exports: string[]; main: string } | { error: string }>;

/** Loads every entry in a child process of the consumer project, each export listed with its main export's type. */
async function load(kind: 'import' | 'require'): Promise<Loaded> {
  const file = join(consumerDir, kind === 'import' ? 'load-entries.mjs' : 'load-entries.cjs');
  const loadOne = kind === 'import' ? 'await import(specifier)' : 'require(specifier)';
  writeFileSync(
    file,
    `const loaded = {};
for (const [specifier, main] of ${JSON.stringify(Object.entries(MAIN_EXPORT))}) {
  try {
    const module = ${loadOne};
    loaded[specifier] = { exports: Object.keys(module).filter((name) => name !== 'default' && name !== 'module.exports').sort(), main: typeof module[main] };
  } catch (error) {
    loaded[specifier] = { error: String(error) };
  }
}
console.log(JSON.stringify(loaded));
`,
  );
  const result = await run(process.execPath, [file], { cwd: consumerDir });
  expect(result.code, result.output).toBe(0);
  return JSON.parse(result.stdout) as Loaded;
}

let imported: Loaded;
let required: Loaded;
beforeAll(async () => {
  [imported, required] = await Promise.all([load('import'), load('require')]);
});

it('checks every entry point the packages export', () => {
  expect(publicEntries().sort()).toEqual(Object.keys(MAIN_EXPORT).sort());
});

describe.each(Object.entries(MAIN_EXPORT))('%s', (specifier, main) => {
  it(`imports as an ES module, with ${main}`, () => {
    expect(imported[specifier]).toMatchObject({ main: 'function' });
  });

  it(`requires as CommonJS, with ${main}, and the same exports`, () => {
    expect(required[specifier]).toMatchObject({ main: 'function' });
    expect(required[specifier]).toEqual(imported[specifier]);
  });
});
