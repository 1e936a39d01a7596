// toOpenAITools in strict mode: every tool of both variants, unbound and bound to a card, passes OpenAI's strict-mode
// rules (test/support/openai-strict-rules.ts, written down from OpenAI's documentation); the checker itself refuses
// what breaks each rule; and what a model sends under strict mode (null for a field left out) runs as the toolkit's
// own schema means it.
import { describe, expect, it } from 'vitest';
import { toStrictSchema } from '../src/adapters/openai-strict.js';
import { createCardrailToolkit, runOpenAIToolCall, toOpenAIResponsesTools, toOpenAITools } from '../src/index.js';
import { compileToolSchema } from './support/schema-validator.js';
import { strictModeViolations } from './support/openai-strict-rules.js';

const toolkits = [
  ['customer', createCardrailToolkit({ apiKey: 'sk_test_strict0001', agentId: 'agt_1' })],
  ['user', createCardrailToolkit({ apiKey: 'sk_test_strict0001', agentId: 'agt_1', variant: 'user' })],
  ['bound to a card', createCardrailToolkit({ apiKey: 'sk_test_strict0001', agentId: 'agt_1', cardId: 'card_1' })],
] as const;

describe('OpenAI function tools in strict mode', () => {
  for (const [label, toolkit] of toolkits) {
    it(`${label}: every tool is strict and passes every strict-mode rule`, () => {
      for (const tool of toOpenAITools(toolkit)) {
        expect(tool.function.strict).toBe(true);
        expect(strictModeViolations(tool.function.name, tool.function.parameters), tool.function.name).toEqual([]);
      }
      for (const tool of toOpenAIResponsesTools(toolkit)) {
        expect(strictModeViolations(tool.name, tool.parameters), tool.name).toEqual([]);
      }
    });
  }

  it("keeps the toolkit's meaning: optional fields take null, limits and defaults move into the description", () => {
    const toolkit = toolkits[0][1];
    const declare = toOpenAITools(toolkit).find((tool) => tool.function.name === 'declare_intent')!.function.parameters;
    const original = toolkit.tools.find((tool) => tool.name === 'declare_intent')!.inputSchema;
    expect(declare.required).toEqual(Object.keys(original.properties));
    expect(declare.properties.cardId).toMatchObject({ type: 'string' });
    expect(declare.properties.expectedMerchant).toMatchObject({
      type: ['string', 'null'],
      description: expect.stringContaining('1 to 200 characters.'),
    });
    expect(declare.properties.ttlMinutes).toMatchObject({ type: ['integer', 'null'], minimum: 1, maximum: 10080 });
    expect(declare.properties.ttlMinutes?.description).toContain('Default 60 (send null for it).');
    expect(declare.properties.tolerance).toMatchObject({
      type: ['object', 'null'],
      additionalProperties: false,
      required: ['percent', 'amount'],
      properties: { percent: { type: ['number', 'null'] } },
    });
    const wait = toOpenAITools(toolkit).find((tool) => tool.function.name === 'wait_for_approval')!.function.parameters;
    expect(wait.properties.timeoutSeconds).toMatchObject({ type: ['integer', 'null'], maximum: 300 });
    // The strict schema judges what a model may send; every such input is valid JSON Schema 2020-12 as well.
    expect(() => compileToolSchema(declare)).not.toThrow();
  });

  it('runs what a model sends under strict mode: null for a field left out counts as left out', async () => {
    const toolkit = createCardrailToolkit({ apiKey: 'sk_test_strict0001', agentId: 'agt_1', baseUrl: 'http://127.0.0.1:9/v1' });
    const answer = JSON.parse(
      await runOpenAIToolCall(toolkit, {
        name: 'wait_for_approval',
        arguments: JSON.stringify({ intentId: 'int_1', timeoutSeconds: 900 }),
      }),
    );
    expect(answer).toMatchObject({ error: { code: 'invalid_input', details: { field: 'timeoutSeconds' } } });
    const nulls = JSON.parse(
      await runOpenAIToolCall(toolkit, {
        name: 'declare_intent',
        arguments: JSON.stringify({
          cardId: '',
          summary: 'x',
          expectedAmount: 100,
          currency: null,
          expectedMerchant: null,
          customerIntentId: null,
          ttlMinutes: null,
          tolerance: { percent: null, amount: 600 },
        }),
      }),
    );
    // Every null was read as left out: the one problem is the empty card id, found before anything was sent.
    expect(nulls).toMatchObject({
      error: { code: 'invalid_input', details: { field: 'cardId', problems: [{ field: 'cardId' }] } },
    });
  });
});

describe('the strict-mode checker refuses what each rule forbids (so the test above can fail)', () => {
  const ok = { type: 'object', properties: { a: { type: 'string' } }, required: ['a'], additionalProperties: false };
  it.each([
    ['a root anyOf', { anyOf: [ok] }, /root must be an object/],
    ['an open object', { ...ok, additionalProperties: true }, /additionalProperties must be false \(rule 2\)/],
    ['an optional property', { ...ok, required: [] }, /property a is not required \(rule 3\)/],
    ['minLength', { ...ok, properties: { a: { type: 'string', minLength: 1 } } }, /keyword minLength is not supported/],
    ['default', { ...ok, properties: { a: { type: 'string', default: 'x' } } }, /keyword default is not supported/],
    ['oneOf', { ...ok, properties: { a: { oneOf: [{ type: 'string' }] } } }, /keyword oneOf is not supported/],
    ['an OpenAPI format', { ...ok, properties: { a: { type: 'integer', format: 'int64' } } }, /format int64 \(rule 6\)/],
    ['an unknown type', { ...ok, properties: { a: { type: 'decimal' } } }, /type decimal \(rule 4\)/],
    [
      'a nested open object',
      { ...ok, properties: { a: { type: 'object', properties: { b: { type: 'string' } }, required: ['b'] } } },
      /#\/properties\/a: additionalProperties must be false/,
    ],
  ])('%s', (_label, schema, message) => {
    expect(strictModeViolations('tool', schema).join('\n')).toMatch(message);
  });

  it('refuses a bad function name, too deep a nesting and too many enum values', () => {
    expect(strictModeViolations('buy card!', ok).join('\n')).toMatch(/rule 10/);
    let deep: Record<string, unknown> = { type: 'string' };
    for (let level = 0; level < 11; level++) {
      deep = { type: 'object', properties: { n: deep }, required: ['n'], additionalProperties: false };
    }
    expect(strictModeViolations('tool', deep).join('\n')).toMatch(/deeper than 10 levels/);
    const many = { ...ok, properties: { a: { type: 'string', enum: Array.from({ length: 1001 }, (_, i) => `v${i}`) } } };
    expect(strictModeViolations('tool', many).join('\n')).toMatch(/1001 enum values/);
  });

  it("the toolkit's own schemas break the rules before conversion, and not after", () => {
    const schema = toolkits[0][1].tools.find((tool) => tool.name === 'declare_intent')!.inputSchema;
    expect(strictModeViolations('declare_intent', schema).length).toBeGreaterThan(0);
    expect(strictModeViolations('declare_intent', toStrictSchema(schema))).toEqual([]);
  });
});
