// Scripted agent run (d): the OpenAI Agents SDK with its scripted model (no real model, no network). A purchase that
// needs a person interrupts the run; the app approves it through cardrailApprovals, which writes the approval to the
// intent; the run resumes and pays with the approved intent. A rejection reaches the intent and the model; a spend
// Cardrail would decline is refused with its reasons; the Cardrail page can decide instead of the app.
import { Agent, run } from '@openai/agents';
import { assistantMessage, functionCall, modelResponder, ScriptedModel } from '@openai/agents/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cardrailApprovals, toOpenAIAgentsTools } from '../src/adapters/openai-agents.js';
import { type CardrailToolkit, TOOL_NAMES } from '../src/index.js';
import { strictModeViolations } from './support/openai-strict-rules.js';
import { startWorld, toolkitFor, type World } from './support/world.js';

let world: World;
let toolkit: CardrailToolkit;
beforeAll(async () => {
  world = await startWorld();
  toolkit = toolkitFor(world);
});
afterAll(() => world.close());

type Request = Parameters<Parameters<typeof modelResponder>[0]>[0]['request'];

/** The outputs of the tool calls the model was sent, newest last (the JSON before any next-step text). */
function outputs(request: Request): { callId: string; text: string }[] {
  const items = Array.isArray(request.input) ? request.input : [];
  return items
    .filter((item): item is Extract<typeof item, { type: 'function_call_result' }> => item.type === 'function_call_result')
    .map((item) => {
      const output = item.output as string | { type: string; text?: string };
      return { callId: item.callId, text: typeof output === 'string' ? output : (output.text ?? JSON.stringify(output)) };
    });
}

let calls = 0;
/** The model: declare the purchase, then (approved) get the credentials for that intent, then say so. */
function buyer(cardId: string): ScriptedModel {
  const declareCall = `call_declare_${++calls}`;
  return new ScriptedModel([
    [
      functionCall(
        'declare_intent',
        { cardId, summary: 'One month of GPU credits', expectedAmount: 2_500, expectedMerchant: 'OpenAI' },
        { callId: declareCall },
      ),
    ],
    modelResponder(({ request }) => {
      const answer = outputs(request).find((output) => output.callId === declareCall)?.text ?? '';
      if (!answer.startsWith('{')) return [assistantMessage(`I will not pay: ${answer}`)];
      const intent = JSON.parse(answer.split('\n\n')[0] as string);
      if (intent.error) return [assistantMessage(`Refused: ${intent.error.message}`)];
      if (intent.status !== 'pending') return [assistantMessage(`The intent is ${intent.status}.`)];
      return [functionCall('get_card_credentials', { cardId, intentId: intent.id }, { callId: `call_credentials_${calls}` })];
    }),
    modelResponder(({ request }) => {
      const credentials = JSON.parse(outputs(request).at(-1)?.text.split('\n\n')[0] ?? '{}');
      return [assistantMessage(`Ready to pay with the card ending ${credentials.last4}.`)];
    }),
  ]);
}

function agent(model: ScriptedModel) {
  return new Agent({ name: 'Buyer', instructions: 'Buy what the user asks for.', model, tools: toOpenAIAgentsTools(toolkit) });
}

const PROMPT = 'Buy one month of GPU credits from OpenAI for 25 dollars.';

describe('OpenAI Agents SDK tools', () => {
  it('are strict function tools, one per toolkit tool, that pass the strict-mode rules', () => {
    const tools = toOpenAIAgentsTools(toolkit);
    expect(tools.map((tool) => tool.name)).toEqual([...TOOL_NAMES]);
    for (const tool of tools) {
      expect(tool.strict, tool.name).toBe(true);
      expect(strictModeViolations(tool.name, tool.parameters as Record<string, unknown>), tool.name).toEqual([]);
    }
  });

  it('interrupt a purchase that needs a person; approve() writes the approval to the intent and the run resumes to pay', async () => {
    const buyerAgent = agent(buyer(world.approvalCard));
    let result = await run(buyerAgent, PROMPT);
    expect(result.interruptions).toHaveLength(1);
    const [interruption] = result.interruptions;
    expect(interruption?.name).toBe('declare_intent');

    const approvals = cardrailApprovals(toolkit);
    const waiting = await approvals.intentOf(interruption!);
    expect(waiting).toMatchObject({ status: 'pending_approval', summary: 'One month of GPU credits', expectedAmount: 2_500 });
    expect((await world.api.intents.retrieve(waiting!.id)).status).toBe('pending_approval');

    const approved = await approvals.approve(result.state, interruption!);
    expect(approved).toMatchObject({ id: waiting!.id, status: 'pending', approvedBy: 'api' });
    result = await run(buyerAgent, result.state);
    expect(result.interruptions).toHaveLength(0);
    expect(result.finalOutput).toMatch(/^Ready to pay with the card ending \d{4}\.$/);
    expect((await world.api.intents.list({ cardId: world.approvalCard })).data.filter((i) => i.id === waiting!.id)).toHaveLength(
      1,
    );

    const payment = await world.api.simulate.authorize({
      cardId: world.approvalCard,
      amount: 2_500,
      merchant: { name: 'OpenAI', mcc: '5734' },
    });
    expect(payment.status).toBe('pending');
    expect(await world.api.intents.retrieve(waiting!.id)).toMatchObject({ status: 'matched', matchedTransactionId: payment.id });
  });

  it("reject() writes the person's reason to the intent and the model is told not to pay", async () => {
    const buyerAgent = agent(buyer(world.approvalCard));
    let result = await run(buyerAgent, PROMPT);
    const [interruption] = result.interruptions;
    const rejected = await cardrailApprovals(toolkit).reject(result.state, interruption!, { reason: 'Too expensive' });
    expect(rejected).toMatchObject({ status: 'rejected', rejectionReason: 'Too expensive' });
    result = await run(buyerAgent, result.state);
    expect(result.finalOutput).toMatch(/^I will not pay: A person rejected intent int_\w+ .*: Too expensive\. Do not pay/);
  });

  it('awaitDecision() lets the Cardrail page decide, and the run follows it', async () => {
    const buyerAgent = agent(buyer(world.approvalCard));
    let result = await run(buyerAgent, PROMPT);
    const [interruption] = result.interruptions;
    const approvals = cardrailApprovals(toolkit);
    const intent = await approvals.intentOf(interruption!);
    const deciding = approvals.awaitDecision(result.state, interruption!, { pollIntervalMs: 50, timeoutMs: 30_000 });
    await world.api.intents.approve(intent!.id); // the person, on the page
    expect(await deciding).toMatchObject({ status: 'pending' });
    result = await run(buyerAgent, result.state);
    expect(result.finalOutput).toMatch(/^Ready to pay/);
  });

  it('whichever decision reaches Cardrail first counts: approving in the app an intent rejected on the page rejects the call', async () => {
    const buyerAgent = agent(buyer(world.approvalCard));
    let result = await run(buyerAgent, PROMPT);
    const [interruption] = result.interruptions;
    const approvals = cardrailApprovals(toolkit);
    const intent = await approvals.intentOf(interruption!);
    await world.api.intents.reject(intent!.id, { reason: 'Decided on the page' });
    expect(await approvals.approve(result.state, interruption!)).toMatchObject({ status: 'rejected' });
    result = await run(buyerAgent, result.state);
    expect(result.finalOutput).toContain('Decided on the page');
  });

  it('a purchase that needs nobody runs without interruption; one Cardrail would decline is refused, nothing declared', async () => {
    const plain = await run(agent(buyer(world.plainCard)), PROMPT);
    expect(plain.interruptions).toHaveLength(0);
    expect(plain.finalOutput).toMatch(/^Ready to pay/);

    const frozen = (await world.api.cards.create({ customerId: world.customerId, agentId: world.agentId, policy: {} })).id;
    await world.api.cards.freeze(frozen);
    const refused = await run(agent(buyer(frozen)), PROMPT);
    expect(refused.interruptions).toHaveLength(0);
    expect(refused.finalOutput).toBe('Refused: Cardrail would decline this spend: The card is frozen. (card_frozen)');
    expect((await world.api.intents.list({ cardId: frozen })).data).toEqual([]);
  });

  it('refuses to answer an interruption of another tool', async () => {
    const approvals = cardrailApprovals(toolkit);
    const foreign = { name: 'shell', rawItem: { type: 'function_call', callId: 'c', name: 'shell' }, arguments: '{}' };
    expect(await approvals.intentOf(foreign as never)).toBeUndefined();
    await expect(approvals.approve({} as never, foreign as never)).rejects.toThrow(/not a declare_intent call/);
  });
});
