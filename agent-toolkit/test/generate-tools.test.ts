import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { deriveTool, HINTS, readBundle, VARIANTS } from '../scripts/generate-tools.mjs';
import { toJsonSchema } from '../scripts/lib/openapi-to-json-schema.mjs';
import { toolCatalog } from '../scripts/tool-catalog.mjs';
import { customerTools, TOOL_NAMES, userTools } from '../src/generated/tool-schemas.js';

const SCRIPT = fileURLToPath(new URL('../scripts/generate-tools.mjs', import.meta.url));
const COMMITTED = fileURLToPath(new URL('../src/generated/tool-schemas.ts', import.meta.url));
const generate = (...args: string[]) => spawnSync(process.execPath, [SCRIPT, ...args], { encoding: 'utf8' });

type Document = ReturnType<typeof readBundle>;
const catalogTool = (name: string) => toolCatalog.find((tool) => tool.name === name)!;
const propertyNames = (schema: { properties: object }) => Object.keys(schema.properties);

/** Every key used as a schema keyword anywhere below `node` (property names excluded). */
function keywords(node: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(node)) for (const item of node) keywords(item, found);
  else if (node !== null && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      found.add(key);
      if (key === 'properties') for (const item of Object.values(value as object)) keywords(item, found);
      else if (key !== 'enum' && key !== 'default' && key !== 'const') keywords(value, found);
    }
  }
  return found;
}

describe('generate-tools --check', () => {
  it('passes on the committed file and fails on a stale one, naming the first differing line', () => {
    expect(generate('--check').status).toBe(0);

    const stale = join(mkdtempSync(join(tmpdir(), 'tool-schemas-')), 'tool-schemas.ts');
    const lines = readFileSync(COMMITTED, 'utf8').split('\n');
    const changedLine = lines.findIndex((line) => line.includes('"minLength": 1'));
    lines[changedLine] = lines[changedLine]!.replace('"minLength": 1', '"minLength": 2');
    writeFileSync(stale, lines.join('\n'));
    const check = generate('--check', '--out', stale);
    expect(check.status).toBe(1);
    expect(check.stderr).toContain(`line ${changedLine + 1}: committed`);
    expect(check.stderr).toContain(`committed ${JSON.stringify(lines[changedLine])}`);

    expect(generate('--out', stale).status).toBe(0);
    expect(readFileSync(stale, 'utf8')).toBe(readFileSync(COMMITTED, 'utf8'));
    expect(generate('--check', '--out', stale).status).toBe(0);
  });
});

describe('tool schemas derived from the spec', () => {
  for (const variant of VARIANTS) {
    const document: Document = readBundle(variant);
    const schemas = document.components.schemas;
    const tools = variant === 'customer' ? customerTools : userTools;

    it(`${variant}: inputs are the operations' parameters and body fields, less what the toolkit fixes`, () => {
      expect(propertyNames(tools.declare_intent.inputSchema)).toEqual(Object.keys(schemas.IntentCreate.properties));
      expect(tools.declare_intent.inputSchema.required).toEqual(schemas.IntentCreate.required);
      expect(propertyNames(tools.evaluate_spend.inputSchema)).toEqual(
        Object.keys(schemas.SpendEvaluateRequest.properties).filter(
          (name) => !['agentId', 'customerId', 'userId'].includes(name),
        ),
      );
      expect(propertyNames(tools.get_card_credentials.inputSchema)).toEqual([
        'cardId',
        ...Object.keys(schemas.CredentialsRequest.properties).filter((name) => name !== 'exposureMode'),
      ]);
      const transactionFilters = document.paths['/transactions'].get.parameters.map(
        (parameter: { $ref?: string; name?: string }) =>
          parameter.$ref ? document.components.parameters[parameter.$ref.split('/').pop()!].name : parameter.name,
      );
      expect(propertyNames(tools.list_transactions.inputSchema)).toEqual(
        transactionFilters.filter((name: string) => name !== 'agentId'),
      );
      // pay_merchant: the operation's fields but the request itself (mpp, acp), which the toolkit reads from the
      // merchant, and the toolkit's own; its answer is the token with the merchant's response beside it.
      expect(propertyNames(tools.pay_merchant.inputSchema)).toEqual([
        'cardId',
        ...Object.keys(schemas.PaymentTokenCreate.properties).filter((name) => name !== 'mpp' && name !== 'acp'),
        'protocol',
        'url',
        'method',
        'body',
      ]);
      expect(tools.pay_merchant.inputSchema.required).toEqual(['cardId', 'protocol', 'url']);
      expect(Object.keys(tools.pay_merchant.outputSchema.properties ?? {})).toEqual([
        ...Object.keys(schemas.PaymentToken.properties),
        'merchantResponse',
      ]);
      for (const name of ['check_spending_power', 'freeze_card'] as const)
        expect(tools[name].inputSchema.required).toEqual(['cardId']);
      expect(tools.get_intent.inputSchema.required).toEqual(['intentId']);
    });

    it(`${variant}: the amount schema is the spec's PositiveAmount, inlined`, () => {
      const { example: _example, ...positiveAmount } = schemas.PositiveAmount;
      expect(tools.declare_intent.inputSchema.properties.expectedAmount).toEqual(positiveAmount);
    });

    it(`${variant}: descriptions are the spec's summary and description, then guidance`, () => {
      for (const name of TOOL_NAMES) {
        const tool = catalogTool(name);
        const operation = document.paths[tool.path][tool.method];
        expect(tools[name].operationId).toBe(operation.operationId);
        expect(tools[name].description.startsWith(operation.summary), name).toBe(true);
        if (operation.description) expect(tools[name].description, name).toContain(operation.description);
        expect(tools[name].description.endsWith(tool.guidance), name).toBe(true);
      }
    });

    it(`${variant}: outputs are the operations' success bodies, inlined; wait_for_approval answers an intent`, () => {
      const inline = (name: string) => toJsonSchema(document, { $ref: `#/components/schemas/${name}` }, name);
      expect(tools.declare_intent.outputSchema).toEqual(inline('Intent'));
      expect(tools.get_intent.outputSchema).toEqual(inline('Intent'));
      expect(tools.wait_for_approval.outputSchema).toEqual(inline('Intent'));
      expect(tools.wait_for_approval.outputSchema.required).toContain('approvalUrl');
      expect(tools.evaluate_spend.outputSchema).toEqual(inline('SpendEvaluation'));
      expect(tools.check_spending_power.outputSchema).toEqual(inline('CardPolicySummary'));
      expect(tools.get_card_credentials.outputSchema).toEqual(inline('Credentials'));
      for (const name of TOOL_NAMES) expect(tools[name].outputSchema.type, name).toBe('object');
    });

    it(`${variant}: wait_for_approval takes the intent id from the spec and a bounded wait of the toolkit's own`, () => {
      expect(tools.wait_for_approval.inputSchema.properties.intentId).toEqual(tools.get_intent.inputSchema.properties.intentId);
      expect(tools.wait_for_approval.inputSchema.properties.timeoutSeconds).toMatchObject({
        type: 'integer',
        minimum: 1,
        maximum: 300,
        default: 45,
      });
      expect(tools.wait_for_approval).toMatchObject({ method: 'GET', path: '/intents/{intentId}', readOnly: true });
    });

    it(`${variant}: schemas are self-contained JSON Schema without OpenAPI-only keywords`, () => {
      for (const name of TOOL_NAMES) {
        const used = [...keywords(tools[name].inputSchema), ...keywords(tools[name].outputSchema)];
        expect(
          used.filter((key) => key === '$ref' || key === 'example' || key.startsWith('x-')),
          name,
        ).toEqual([]);
      }
    });
  }

  it('carries every hint the catalog states, and fails when one is not stated', () => {
    const document = readBundle('customer');
    for (const tool of toolCatalog) {
      const derived = deriveTool(document, tool, 'customer');
      for (const hint of HINTS)
        expect(derived[hint as keyof typeof derived], `${tool.name} ${hint}`).toBe(tool[hint as keyof typeof tool]);
    }
    const { idempotent: _unstated, ...vague } = catalogTool('freeze_card');
    expect(() => deriveTool(document, vague as (typeof toolCatalog)[number], 'customer')).toThrow(
      /the catalog does not state idempotent of tool freeze_card/,
    );
  });

  it("fails when a field of the toolkit's own collides with one of the operation's", () => {
    const document = readBundle('customer');
    const colliding = { ...catalogTool('wait_for_approval'), toolkitInput: { intentId: { type: 'string' } } };
    expect(() => deriveTool(document, colliding, 'customer')).toThrow(
      /intentId appears twice in the tool input \(again as toolkit field\)/,
    );
  });

  it('fails when a field the toolkit fixes is gone from the spec, and drops an owner field only where it exists', () => {
    const document = readBundle('customer');
    const renamed = structuredClone(document);
    delete renamed.components.schemas.SpendEvaluateRequest.properties.agentId;
    expect(() => deriveTool(renamed, catalogTool('evaluate_spend'), 'customer')).toThrow(/fixes agentId/);

    const { customerId, ...rest } = document.components.schemas.SpendEvaluateRequest.properties;
    const userNamed = structuredClone(document);
    userNamed.components.schemas.SpendEvaluateRequest.properties = { ...rest, userId: customerId };
    expect(propertyNames(deriveTool(userNamed, catalogTool('evaluate_spend'), 'user').inputSchema)).not.toContain('userId');
  });
});

describe('OpenAPI to JSON Schema', () => {
  const document = {
    components: {
      schemas: {
        Amount: { type: 'integer', minimum: 0, example: 5, 'x-cardrail-extension': true, description: 'Cents (section 2.5).' },
        Node: { type: 'object', properties: { next: { $ref: '#/components/schemas/Node' } } },
      },
    },
  };

  it('inlines references, keeps a property named like a keyword and drops OpenAPI-only keywords and section citations', () => {
    const schema = {
      type: 'object',
      properties: { example: { $ref: '#/components/schemas/Amount', description: 'Own text.' } },
      discriminator: {},
    };
    expect(toJsonSchema(document, schema, 'test')).toEqual({
      type: 'object',
      properties: { example: { type: 'integer', minimum: 0, description: 'Own text.' } },
    });
    expect(toJsonSchema(document, { $ref: '#/components/schemas/Amount' }, 'test')).toEqual({
      type: 'integer',
      minimum: 0,
      description: 'Cents.',
    });
  });

  it('refuses recursive references, unknown keywords and other citations of the service specification', () => {
    expect(() => toJsonSchema(document, { $ref: '#/components/schemas/Node' }, 'test')).toThrow(/recursive/);
    expect(() => toJsonSchema(document, { type: 'string', nullable: true, 'pattern-x': 1 }, 'test')).toThrow(
      /unsupported keyword "pattern-x"/,
    );
    expect(() => toJsonSchema(document, { type: 'string', description: 'As in section 6.2.' }, 'test')).toThrow(
      /cites a section/,
    );
  });
});
