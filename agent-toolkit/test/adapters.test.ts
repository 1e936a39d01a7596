import { asSchema, generateText, stepCountIs } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toAISDKTools } from '../src/adapters/ai-sdk.js';
import {
  runOpenAIToolCall,
  TOOL_NAMES,
  ToolError,
  toOpenAIResponsesTools,
  toOpenAITools,
  type CardrailToolkit,
} from '../src/index.js';
import { chatCompletionFunctionTool, responsesFunctionTool } from './support/openai-shapes.js';
import { compileToolSchema } from './support/schema-validator.js';
import { startWorld, toolkitFor, type World } from './support/world.js';

let world: World;
let toolkit: CardrailToolkit;
beforeAll(async () => {
  world = await startWorld();
  toolkit = toolkitFor(world);
});
afterAll(() => world.close());

describe('OpenAI function tools', () => {
  const shapes = new Ajv2020({ strict: true, allErrors: true });

  it("are Chat Completions and Responses function tools with the toolkit's schemas", () => {
    const chat = toOpenAITools(toolkit);
    const responses = toOpenAIResponsesTools(toolkit);
    const isChatTool = shapes.compile(chatCompletionFunctionTool);
    const isResponsesTool = shapes.compile(responsesFunctionTool);
    expect(chat.map((tool) => tool.function.name)).toEqual([...TOOL_NAMES]);
    chat.forEach((tool) => {
      expect(isChatTool(tool), JSON.stringify(isChatTool.errors)).toBe(true);
      expect(tool.function.strict).toBe(true);
      expect(() => compileToolSchema(tool.function.parameters)).not.toThrow();
    });
    responses.forEach((tool, i) => {
      expect(isResponsesTool(tool), JSON.stringify(isResponsesTool.errors)).toBe(true);
      expect(tool).toMatchObject({ name: TOOL_NAMES[i], description: toolkit.tools[i]?.description, strict: true });
      expect(tool.parameters).toEqual(chat[i]?.function.parameters);
    });
    // Asked for, the toolkit's own schemas as they are.
    toOpenAITools(toolkit, { strict: false }).forEach((tool, i) => {
      expect(tool.function).toMatchObject({ strict: false, parameters: toolkit.tools[i]?.inputSchema });
    });
    // Plain JSON: what goes over the wire is what the function returned.
    expect(JSON.parse(JSON.stringify(chat))).toEqual(chat);
  });

  it("runs a model's function call and answers the tool output text, errors included", async () => {
    const policy = JSON.parse(
      await runOpenAIToolCall(toolkit, { name: 'check_spending_power', arguments: JSON.stringify({ cardId: world.plainCard }) }),
    );
    expect(policy).toMatchObject({ cardId: world.plainCard, limits: { spentDay: 0 } });
    const refused = JSON.parse(
      await runOpenAIToolCall(toolkit, { name: 'freeze_card', arguments: JSON.stringify({ cardId: world.otherAgentCard }) }),
    );
    expect(refused).toMatchObject({ error: { code: 'out_of_scope' } });
    const garbled = JSON.parse(await runOpenAIToolCall(toolkit, { name: 'freeze_card', arguments: '{"cardId":' }));
    expect(garbled).toMatchObject({ error: { code: 'invalid_input' } });
    expect((await world.api.cards.retrieve(world.otherAgentCard)).status).toBe('active');
  });
});

describe('Vercel AI SDK tools', () => {
  it("carry the toolkit's JSON Schemas unchanged", async () => {
    const tools = toAISDKTools(toolkit);
    expect(Object.keys(tools)).toEqual([...TOOL_NAMES]);
    for (const [i, name] of TOOL_NAMES.entries()) {
      expect(await asSchema(tools[name].inputSchema).jsonSchema).toEqual(toolkit.tools[i]?.inputSchema);
      expect(tools[name].description).toBe(toolkit.tools[i]?.description);
    }
  });

  it('run inside generateText: the model gets the schemas, a call runs against the API, a refusal is a tool error', async () => {
    const model = new MockLanguageModelV3({
      doGenerate: async () => ({
        content: [
          {
            type: 'tool-call',
            toolCallId: 'call-1',
            toolName: 'check_spending_power',
            input: JSON.stringify({ cardId: world.plainCard }),
          },
          {
            type: 'tool-call',
            toolCallId: 'call-2',
            toolName: 'freeze_card',
            input: JSON.stringify({ cardId: world.otherAgentCard }),
          },
        ],
        finishReason: { unified: 'tool-calls', raw: undefined },
        usage: {
          inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
          outputTokens: { total: 5, text: 5, reasoning: undefined },
        },
        warnings: [],
      }),
    });
    const result = await generateText({
      model,
      tools: toAISDKTools(toolkit),
      prompt: 'Can I buy GPU credits?',
      stopWhen: stepCountIs(1),
    });

    const offered = model.doGenerateCalls[0]?.tools ?? [];
    expect(offered.map((tool) => (tool.type === 'function' ? [tool.name, tool.inputSchema] : tool.type))).toEqual(
      toolkit.tools.map((tool) => [tool.name, tool.inputSchema]),
    );
    const [policy] = result.toolResults;
    expect(policy).toMatchObject({ toolName: 'check_spending_power', output: { cardId: world.plainCard } });
    const refusal = result.content.find((part) => part.type === 'tool-error');
    expect(refusal).toMatchObject({ toolName: 'freeze_card', error: expect.any(ToolError) });
    expect(refusal?.type === 'tool-error' && refusal.error).toMatchObject({ code: 'out_of_scope' });
  });
});
