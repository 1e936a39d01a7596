// cardrail-mcp as a user installs it, answered over stdio to the MCP clients users have: the v1 SDK's (MCP
// 2025-11-25) and the v2 client's (2026-07-28), with the server on Node 24, 22 and 20 (the toolkit's engines floor).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { consumerDir } from '../support/consumer.js';
import { nodeBinary } from '../support/node-majors.js';
import { run } from '../support/run.js';

const TOOLS = [
  'check_spending_power',
  'evaluate_spend',
  'declare_intent',
  'get_intent',
  'wait_for_approval',
  'get_card_credentials',
  'pay_merchant',
  'list_transactions',
  'freeze_card',
];

describe('npx cardrail-mcp and MCP clients', () => {
  for (const [label, node] of [
    ['Node 24', process.execPath],
    ['Node 22', nodeBinary(22)],
    ['Node 20', nodeBinary(20)],
  ] as const) {
    it(`lists the tools to a 2025-11-25 and a 2026-07-28 client, the server on ${label}`, async () => {
      const result = await run(process.execPath, [join('mcp', 'list-tools.mjs'), node], { cwd: consumerDir });
      expect(result.code, result.output).toBe(0);
      expect(JSON.parse(result.stdout)).toEqual({
        legacy: { server: 'cardrail', tools: TOOLS },
        modern: { era: 'modern', tools: TOOLS },
      });
    });
  }
});
