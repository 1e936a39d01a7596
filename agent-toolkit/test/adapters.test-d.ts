// The adapters' output against the frameworks' own types: if either framework's tool type moves away from what the
// adapters produce, this file stops compiling.
import { generateText, type LanguageModel, type ToolSet } from 'ai';
import type { ChatCompletionCreateParams, ChatCompletionFunctionTool } from 'openai/resources/chat/completions';
import type { FunctionTool, ResponseCreateParams } from 'openai/resources/responses/responses';
import { describe, expectTypeOf, it } from 'vitest';
import { cardrailToolApproval, toAISDKTools } from '../src/adapters/ai-sdk.js';
import { createCardrailToolkit, toOpenAIResponsesTools, toOpenAITools } from '../src/index.js';

const toolkit = createCardrailToolkit({ apiKey: 'sk_test_typecheck1', agentId: 'agt_1' });

describe('adapter types', () => {
  it('are OpenAI function tools, usable as the `tools` of both APIs', () => {
    expectTypeOf(toOpenAITools(toolkit)).toExtend<ChatCompletionFunctionTool[]>();
    expectTypeOf(toOpenAITools(toolkit)).toExtend<NonNullable<ChatCompletionCreateParams['tools']>>();
    expectTypeOf(toOpenAIResponsesTools(toolkit)).toExtend<FunctionTool[]>();
    expectTypeOf(toOpenAIResponsesTools(toolkit)).toExtend<NonNullable<ResponseCreateParams['tools']>>();
  });

  it('are an AI SDK tool set', () => {
    expectTypeOf(toAISDKTools(toolkit)).toExtend<ToolSet>();
  });

  it("plug into generateText with ai 7's tool approval", () => {
    // Compiled, never run: the approval configuration fits generateText's `toolApproval` for these tools.
    const call = (model: LanguageModel) =>
      generateText({ model, tools: toAISDKTools(toolkit), toolApproval: cardrailToolApproval(toolkit), prompt: 'Buy.' });
    expectTypeOf(call).returns.resolves.toHaveProperty('content');
  });
});
