import { MockLanguageModelV3 } from 'ai/test';

type GenerateOptions = Parameters<MockLanguageModelV3['doGenerate']>[0];
type Prompt = GenerateOptions['prompt'];

/** What a scripted step answers: tool calls (name and input) or a final text. */
export type ScriptedAnswer = { toolCalls: { name: string; input: Record<string, unknown> }[] } | { text: string };

/** The tool results (and denials) the model was sent so far, by tool name, newest last. */
export function toolOutputs(prompt: Prompt): { toolName: string; output: { type: string; value?: unknown; reason?: string } }[] {
  const outputs: { toolName: string; output: { type: string; value?: unknown; reason?: string } }[] = [];
  for (const message of prompt) {
    if (message.role !== 'tool') continue;
    for (const part of message.content) {
      if (part.type === 'tool-result') outputs.push({ toolName: part.toolName, output: part.output as never });
    }
  }
  return outputs;
}

/** The JSON a tool answered, from its model output (`json`, or the first text of `content`). */
export function outputJson(output: { type: string; value?: unknown }): any {
  if (output.type === 'json') return output.value;
  if (output.type === 'content') return JSON.parse((output.value as { text: string }[])[0]!.text);
  if (output.type === 'text') return JSON.parse(String(output.value));
  return undefined;
}

/**
 * A language model that plays a script, no network: each call to the model runs the next step, which reads what the
 * model was sent (the tool results so far) and answers tool calls or a final text. Works with `ai` 6 and 7 (both take
 * a V3 model).
 */
export function scriptedModel(steps: ((prompt: Prompt) => ScriptedAnswer)[]): MockLanguageModelV3 {
  let calls = 0;
  // Call ids unique to this model: the toolkit keys a declaration by its call id and input.
  const run = Math.random().toString(36).slice(2, 8);
  return new MockLanguageModelV3({
    doGenerate: async (options) => {
      const step = steps[calls];
      if (step === undefined) throw new Error(`The script has ${steps.length} steps; the model was called again.`);
      calls += 1;
      const answer = step(options.prompt);
      const content =
        'text' in answer
          ? [{ type: 'text' as const, text: answer.text }]
          : answer.toolCalls.map((call, i) => ({
              type: 'tool-call' as const,
              toolCallId: `call-${run}-${calls}-${i}`,
              toolName: call.name,
              input: JSON.stringify(call.input),
            }));
      return {
        content,
        finishReason: { unified: 'text' in answer ? ('stop' as const) : ('tool-calls' as const), raw: undefined },
        usage: {
          inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
          outputTokens: { total: 5, text: 5, reasoning: undefined },
        },
        warnings: [],
      };
    },
  });
}
