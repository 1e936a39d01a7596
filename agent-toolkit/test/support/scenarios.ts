import { constructEvent } from '@cardrail/sdk/webhooks';
import { expect } from 'vitest';
import { startReceiver } from './receiver.js';
import type { ToolCaller } from './tool-caller.js';
import type { World } from './world.js';

/**
 * The scripted agent run of a purchase that needs a human's approval: check_spending_power -> declare_intent ->
 * get_intent (pending approval; credentials refused) -> the developer approves through the API -> get_intent
 * (pending) -> get_card_credentials -> the payment (/simulate/authorize, the declared amount) -> `intent.matched`
 * delivered to a webhook and verified -> the transaction in list_transactions.
 */
export async function scriptedAgentRun(world: World, call: ToolCaller): Promise<void> {
  const receiver = await startReceiver();
  try {
    const webhook = await world.api.webhooks.create({ url: receiver.url, events: ['intent.matched', 'credential.accessed'] });
    const card = world.approvalCard;
    const amount = 2_500;

    const power = await call('check_spending_power', { cardId: card });
    expect(power.isError).toBe(false);
    expect(power.payload).toMatchObject({ cardId: card, status: 'active', policy: { requireApproval: true } });
    expect(power.payload.cooldown.isInCooldown).toBe(false);

    const declared = await call('declare_intent', {
      cardId: card,
      summary: 'One month of GPU credits',
      expectedAmount: amount,
      expectedMerchant: 'OpenAI',
    });
    expect(declared.isError).toBe(false);
    expect(declared.payload).toMatchObject({
      cardId: card,
      agentId: world.agentId,
      expectedAmount: amount,
      status: 'pending_approval',
    });
    const intentId: string = declared.payload.id;

    const waiting = await call('get_intent', { intentId });
    expect(waiting.payload).toMatchObject({ id: intentId, status: 'pending_approval', approvedAt: null });

    const tooEarly = await call('get_card_credentials', { cardId: card });
    expect(tooEarly).toMatchObject({ isError: true, payload: { error: { code: 'approval_required', status: 400 } } });

    await world.api.intents.approve(intentId);
    const approved = await call('get_intent', { intentId });
    expect(approved.payload).toMatchObject({ id: intentId, status: 'pending' });
    expect(approved.payload.approvedAt).toEqual(expect.any(String));

    const credentials = await call('get_card_credentials', { cardId: card, intentId });
    expect(credentials.isError).toBe(false);
    expect(credentials.payload).toMatchObject({ cardId: card, exposure: 'masked', last4: expect.stringMatching(/^[0-9]{4}$/) });
    expect(credentials.payload).not.toHaveProperty('pan');
    expect(credentials.payload).not.toHaveProperty('cvc');

    const payment = await world.api.simulate.authorize({ cardId: card, amount, merchant: { name: 'OpenAI', mcc: '5734' } });
    expect(payment.status).toBe('pending');

    await world.running.mock.idle();
    const events = await Promise.all(
      receiver.deliveries.map((delivery) =>
        constructEvent({ payload: delivery.body, header: delivery.signature, secret: webhook.secret }),
      ),
    );
    const matched = events.find((event) => event.type === 'intent.matched');
    expect(matched?.data).toMatchObject({
      intentId,
      cardId: card,
      agentId: world.agentId,
      transactionId: payment.id,
      expectedAmount: amount,
      actualAmount: amount,
    });
    const accessed = events.find((event) => event.type === 'credential.accessed');
    expect(accessed?.data).toMatchObject({
      cardId: card,
      agentId: world.agentId,
      accessEventId: credentials.payload.accessEventId,
    });

    const listed = await call('list_transactions', { cardId: card });
    expect(listed.payload.data.map((txn: { id: string }) => txn.id)).toEqual([payment.id]);
  } finally {
    await receiver.close();
  }
}

/**
 * Refusals: another agent's card (nothing happens to it), credentials without an intent on a card that requires
 * one, a frozen card.
 */
export async function refusalPaths(world: World, call: ToolCaller): Promise<void> {
  for (const [name, args] of [
    ['get_card_credentials', { cardId: world.otherAgentCard }],
    ['freeze_card', { cardId: world.otherAgentCard }],
    ['declare_intent', { cardId: world.otherAgentCard, summary: 'Not mine', expectedAmount: 100 }],
    ['check_spending_power', { cardId: world.otherAgentCard }],
  ] as const) {
    const refused = await call(name, args);
    expect(refused, name).toMatchObject({
      isError: true,
      payload: { error: { code: 'out_of_scope', details: { cardId: world.otherAgentCard } } },
    });
  }
  expect((await world.api.cards.retrieve(world.otherAgentCard)).status).toBe('active');
  expect((await world.api.intents.list({ cardId: world.otherAgentCard })).data).toEqual([]);

  const withoutIntent = await call('get_card_credentials', { cardId: world.intentCard });
  expect(withoutIntent).toMatchObject({ isError: true, payload: { error: { code: 'intent_required', status: 400 } } });

  const frozen = await call('freeze_card', { cardId: world.plainCard });
  expect(frozen).toMatchObject({ isError: false, payload: { id: world.plainCard, status: 'frozen' } });
  const onFrozen = await call('get_card_credentials', { cardId: world.plainCard });
  expect(onFrozen).toMatchObject({ isError: true, payload: { error: { code: 'card_not_active', status: 400 } } });
  const evaluation = await call('evaluate_spend', { cardId: world.plainCard, amount: 500 });
  expect(evaluation.payload.decision).toBe('decline');
  expect(evaluation.payload.reasons.map((reason: { code: string }) => reason.code)).toContain('card_frozen');

  const accesses = await world.api.events.list({ type: 'credential.accessed' });
  expect(accesses.data.filter((event) => JSON.stringify(event).includes(world.otherAgentCard))).toEqual([]);
}
