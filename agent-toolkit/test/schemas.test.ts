import { describe, expect, it } from 'vitest';
import { createCardrailToolkit, TOOL_NAMES, type ToolName } from '../src/index.js';
import { customerTools, userTools } from '../src/generated/tool-schemas.js';
import { compileToolSchema } from './support/schema-validator.js';

/** An input a model could send for each tool, valid against the spec. */
const VALID: Record<ToolName, Record<string, unknown>> = {
  check_spending_power: { cardId: 'card_1' },
  evaluate_spend: { cardId: 'card_1', amount: 2_500, currency: 'usd', merchant: { name: 'OpenAI', mcc: '5734' } },
  declare_intent: {
    cardId: 'card_1',
    summary: 'GPU credits',
    expectedAmount: 2_500,
    expectedMerchant: 'OpenAI',
    tolerance: { percent: 5 },
  },
  get_intent: { intentId: 'int_1' },
  wait_for_approval: { intentId: 'int_1', timeoutSeconds: 30 },
  get_card_credentials: { cardId: 'card_1', intentId: 'int_1', expectedAmount: 2_500 },
  list_transactions: { cardId: 'card_1', status: 'declined', limit: 10 },
  freeze_card: { cardId: 'card_1' },
  pay_merchant: { cardId: 'card_1', protocol: 'mpp', url: 'https://gpu.example.com/jobs', method: 'POST', body: '{}' },
};

describe('tool input schemas', () => {
  for (const [variant, tools] of [
    ['customer', customerTools],
    ['user', userTools],
  ] as const) {
    it(`${variant}: every schema compiles with Ajv 2020 in strict mode and judges inputs as the spec does`, () => {
      for (const name of TOOL_NAMES) {
        const validate = compileToolSchema(tools[name].inputSchema);
        expect(validate(VALID[name]), `${name}: ${JSON.stringify(validate.errors)}`).toBe(true);
        expect(validate({ ...VALID[name], agentId: 'agt_other' }), name).toBe(false);
        for (const field of tools[name].inputSchema.required ?? []) {
          const { [field]: _dropped, ...rest } = VALID[name];
          expect(validate(rest), `${name} without ${field}`).toBe(false);
        }
      }
      expect(compileToolSchema(tools.declare_intent.inputSchema)({ ...VALID.declare_intent, expectedAmount: 0 })).toBe(false);
      expect(compileToolSchema(tools.list_transactions.inputSchema)({ status: 'refunded' })).toBe(false);
      expect(compileToolSchema(tools.wait_for_approval.inputSchema)({ intentId: 'int_1', timeoutSeconds: 301 })).toBe(false);
    });
  }

  it('bound to a card, schemas still compile and take no cardId', () => {
    const toolkit = createCardrailToolkit({ apiKey: 'sk_test_schemas01', agentId: 'agt_1', cardId: 'card_1' });
    for (const tool of toolkit.tools) {
      const { cardId: _cardId, ...withoutCard } = VALID[tool.name];
      expect(compileToolSchema(tool.inputSchema)(withoutCard), tool.name).toBe(true);
    }
  });
});
