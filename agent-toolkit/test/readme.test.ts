import { readFileSync } from 'node:fs';
import { createMockServer, loadFixtures } from '@cardrail/mock-server';
import { describe, expect, it } from 'vitest';
import { parseCli } from '../src/cli/args.js';
import { createCardrailToolkit } from '../src/index.js';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const fixtures = JSON.parse(readFileSync(new URL('../examples/mock-fixtures.json', import.meta.url), 'utf8')) as Parameters<
  typeof loadFixtures
>[1] & {
  apiKey: string;
  seed: string;
};
const BASE_URL = 'http://127.0.0.1:4010/v1';

/** The ids the five-minute path uses, as the seeded fixtures create them. */
async function seededMock() {
  const mock = createMockServer({ seed: fixtures.seed });
  const refs = (await loadFixtures(mock, fixtures, BASE_URL)) as Record<string, { id: string }>;
  return { mock, agentId: refs.buyer!.id, cardId: refs.card!.id };
}

describe('README five-minute path', () => {
  it('uses the key and the ids the example fixtures create', async () => {
    const { agentId, cardId } = await seededMock();
    expect([...new Set(readme.match(/agt_[A-Za-z0-9]{12,}/g))]).toEqual([agentId]);
    expect([...new Set(readme.match(/card_[A-Za-z0-9]{12,}/g))]).toEqual([cardId]);
    expect([...new Set(readme.match(/sk_test_[A-Za-z0-9]+/g))]).toEqual([fixtures.apiKey]);
  });

  it('gives an mcpServers entry that starts cardrail-mcp for that agent on the mock', async () => {
    const block = readme.match(/```json\n(\s*\{\s*"mcpServers"[\s\S]*?)```/)?.[1];
    const entry = (
      JSON.parse(block!) as { mcpServers: Record<string, { command: string; args: string[]; env: Record<string, string> }> }
    ).mcpServers.cardrail!;
    expect(entry.args.slice(0, 2)).toEqual(['-y', '@cardrail/agent-toolkit']);
    const { agentId } = await seededMock();
    expect(parseCli(entry.args.slice(2), entry.env)).toMatchObject({
      kind: 'serve',
      config: { apiKey: fixtures.apiKey, agentId, baseUrl: BASE_URL, transport: 'stdio', credentialExposure: 'masked' },
    });
  });

  it("has a card whose intents wait for a human's approval, as the story says", async () => {
    const { mock, agentId, cardId } = await seededMock();
    const toolkit = createCardrailToolkit({
      apiKey: fixtures.apiKey,
      agentId,
      baseUrl: BASE_URL,
      clientOptions: { fetch: (request) => mock.handle(request) },
    });
    const intent = await toolkit.run('declare_intent', {
      cardId,
      summary: 'GPU credits',
      expectedAmount: 2_500,
      expectedMerchant: 'OpenAI',
    });
    expect(intent).toMatchObject({ status: 'pending_approval' });
  });
});
