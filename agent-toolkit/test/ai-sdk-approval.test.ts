// Scripted agent run (c): the Vercel AI SDK with its mock model and tool approval, no real model and no network.
// With ai 7 (npm test) the toolkit's `toolApproval` decides each declaration from Cardrail's evaluation; with ai 6 (the
// Node 20 lane, CARDRAIL_AI_MAJOR=6) the tool's own `needsApproval` does. Either way: a purchase that needs a person
// pauses the run with an approval request naming it, the person's answer resumes it and is written to the intent,
// and a spend Cardrail would decline is refused with its reasons before anything is declared.
import { generateText, type ModelMessage, stepCountIs } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aiMajor } from '../../scripts/vitest-ai.mjs';
import { cardrailToolApproval, recordApprovalResponses, toAISDKTools } from '../src/adapters/ai-sdk.js';
import type { CardrailToolkit } from '../src/index.js';
import { outputJson, scriptedModel, toolOutputs } from './support/scripted-model.js';
import { startWorld, toolkitFor, type World } from './support/world.js';

let world: World;
let toolkit: CardrailToolkit;
beforeAll(async () => {
  world = await startWorld();
  toolkit = toolkitFor(world);
});
afterAll(() => world.close());

const PROMPT = 'Buy one month of GPU credits from OpenAI for 25 dollars.';
const major = aiMajor();

/** generateText with the toolkit's tools and, for the major in force, its approval step. */
function run(model: ReturnType<typeof scriptedModel>, messages: ModelMessage[]) {
  return generateText({
    model,
    tools: toAISDKTools(toolkit, { needsApproval: major === 6 }),
    ...(major === 7 ? { toolApproval: cardrailToolApproval(toolkit) } : {}),
    messages,
    stopWhen: stepCountIs(5),
  });
}

/** The model's part: declare the purchase on a card, then, once approved, get the credentials for that intent. */
function buyer(cardId: string) {
  return scriptedModel([
    () => ({
      toolCalls: [
        {
          name: 'declare_intent',
          input: { cardId, summary: 'One month of GPU credits', expectedAmount: 2_500, expectedMerchant: 'OpenAI' },
        },
      ],
    }),
    (prompt) => {
      const declared = toolOutputs(prompt).find((result) => result.toolName === 'declare_intent');
      if (declared?.output.type === 'execution-denied') return { text: `Not approved: ${declared.output.reason ?? ''}` };
      if (declared?.output.type.startsWith('error')) return { text: `Refused: ${JSON.stringify(declared.output.value)}` };
      const intent = outputJson(declared!.output);
      if (intent.status !== 'pending') return { text: `The intent is ${intent.status}; I will not pay.` };
      return { toolCalls: [{ name: 'get_card_credentials', input: { cardId, intentId: intent.id } }] };
    },
    (prompt) => {
      const credentials = outputJson(toolOutputs(prompt).at(-1)!.output);
      return { text: `Ready to pay with the card ending ${credentials.last4}.` };
    },
  ]);
}

/** The app's part: the approval request the run paused on, and the person's answer appended to the conversation. */
function answer(result: Awaited<ReturnType<typeof run>>, approved: boolean, reason?: string): ModelMessage[] {
  const request = result.content.find((part) => part.type === 'tool-approval-request');
  if (request?.type !== 'tool-approval-request') throw new Error('The run did not ask for an approval');
  return [
    ...result.response.messages,
    {
      role: 'tool',
      content: [{ type: 'tool-approval-response', approvalId: request.approvalId, approved, ...(reason ? { reason } : {}) }],
    },
  ];
}

describe(`AI SDK ${major} tool approval`, () => {
  it('pauses a purchase that needs a person, resumes once approved, and the approval reaches the intent', async () => {
    const model = buyer(world.approvalCard);
    const messages: ModelMessage[] = [{ role: 'user', content: PROMPT }];
    const first = await run(model, messages);

    const request = first.content.find((part) => part.type === 'tool-approval-request');
    expect(request).toMatchObject({ toolCall: { toolName: 'declare_intent' } });
    if (major === 7) {
      // ai 7 carries the reason: what the person decides on, and where else they can.
      expect(request && 'reason' in request ? request.reason : '').toMatch(
        new RegExp(
          `^Agent ${world.agentId} wants to pay 25\\.00 USD at OpenAI for "One month of GPU credits" \\(intent int_\\w+\\)`,
        ),
      );
    }
    // The intent exists while the person decides (its page and its webhook), waiting for them.
    const [waiting] = (await world.api.intents.list({ cardId: world.approvalCard, status: 'pending_approval' })).data;
    expect(waiting).toMatchObject({ summary: 'One month of GPU credits', expectedAmount: 2_500 });

    const resumed = [...messages, ...answer(first, true)];
    const second = await run(model, resumed);
    expect(second.text).toMatch(/^Ready to pay with the card ending \d{4}\.$/);
    const decided = await world.api.intents.retrieve(waiting!.id);
    expect(decided).toMatchObject({ status: 'pending', approvedBy: 'api' });
    // One intent for the call: the review declared it, the approved call found it again.
    expect((await world.api.intents.list({ cardId: world.approvalCard })).data.filter((i) => i.id === waiting!.id)).toHaveLength(
      1,
    );
    const credentials = second.steps
      .flatMap((step) => step.toolResults)
      .find((result) => result.toolName === 'get_card_credentials');
    expect(credentials).toMatchObject({
      input: { intentId: waiting!.id },
      output: { cardId: world.approvalCard, exposure: 'masked' },
    });
    // Recording the same answers again changes nothing.
    expect(await recordApprovalResponses(toolkit, resumed)).toMatchObject([{ approved: true, intent: { status: 'pending' } }]);
  });

  it("a person's rejection is written to the intent with their reason, and the model is told", async () => {
    const model = buyer(world.approvalCard);
    const messages: ModelMessage[] = [{ role: 'user', content: PROMPT }];
    const first = await run(model, messages);
    const resumed = [...messages, ...answer(first, false, 'Not in this month’s budget')];

    const recorded = await recordApprovalResponses(toolkit, resumed);
    expect(recorded).toEqual([
      expect.objectContaining({
        approved: false,
        intent: expect.objectContaining({ status: 'rejected', rejectionReason: 'Not in this month’s budget' }),
      }),
    ]);
    const second = await run(model, resumed);
    expect(second.text).toMatch(/^Not approved/);
    expect(second.text).toContain('Not in this month’s budget');
  });

  it('a purchase that needs nobody runs at once; one Cardrail would decline is refused with its reasons, nothing declared', async () => {
    const plain = await run(buyer(world.plainCard), [{ role: 'user', content: PROMPT }]);
    expect(plain.content.some((part) => part.type === 'tool-approval-request')).toBe(false);
    expect(plain.text).toMatch(/^Ready to pay/);

    const frozenCard = (await world.api.cards.create({ customerId: world.customerId, agentId: world.agentId, policy: {} })).id;
    await world.api.cards.freeze(frozenCard);
    const refused = await run(buyer(frozenCard), [{ role: 'user', content: PROMPT }]);
    const outcome = JSON.stringify(refused.steps.flatMap((step) => step.content));
    expect(outcome).toContain('Cardrail would decline this spend: The card is frozen. (card_frozen)');
    // Nobody is asked: ai 7 records the denial as an automatic answer, ai 6 as the tool's error.
    const asked = refused.steps.flatMap((step) => step.content).filter((part) => part.type === 'tool-approval-request');
    expect(asked.every((part) => part.type === 'tool-approval-request' && part.isAutomatic === true)).toBe(true);
    expect((await world.api.intents.list({ cardId: frozenCard })).data).toEqual([]);
  });
});
