// The threat model of docs/agents.md, server side: only a person decides. A decision needs the capability the card's
// view holds, so a call from the model's side (without it, with another intent's, replayed, forged, expired, for
// another agent's or organization's intent) is refused and changes nothing; so is a reason over the spec's maximum.
import { Cardrail } from '@cardrail/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCardrailToolkit } from '../src/index.js';
import { DecisionCapabilities } from '../src/mcp/apps/decision-capability.js';
import { API_KEY_SUBJECT, bindingOf } from '../src/mcp/auth-context.js';
import { appsRpc, errorOf, SECRET } from './support/apps-rpc.js';
import { newKey, startWorld, type World } from './support/world.js';

let world: World;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(() => world.close());

const { handlerFor, call, declared, statusOf } = appsRpc(() => world);

describe('only a person decides: a decision from the model side is refused and changes nothing', () => {
  it('from a client that does not render MCP Apps, the card tools do not exist (-32602)', async () => {
    const handler = handlerFor();
    const { intentId, capability } = await declared(handler);
    for (const capabilities of [{}, { elicitation: { url: {} } }]) {
      const answer = await call(handler, 'approval_card_decide', { intentId, decision: 'approve', capability }, capabilities);
      expect(answer.error).toMatchObject({
        code: -32602,
        message: expect.stringMatching(/^Unknown tool approval_card_decide; the tools are check_spending_power/),
      });
      expect(answer.error?.message.split('the tools are ')[1]).not.toContain('approval_card');
    }
    expect(await statusOf(intentId)).toBe('pending_approval');
    await handler.close();
  });

  it('without the capability, with another intent’s, a forged or another server’s one: refused, nothing read or decided', async () => {
    const handler = handlerFor();
    const { intentId, capability } = await declared(handler);
    const other = await declared(handler);
    const [prefix, id, expiry, mac] = capability.split('.') as [string, string, string, string];
    const tampered = `${prefix}.${id}.${(Number.parseInt(expiry, 36) + 60_000).toString(36)}.${mac}`;
    const strangers = handlerFor({ stateSecret: 'another-state-secret-of-32-bytes-or-more' });
    const theirs = await declared(strangers);
    const cases: [Record<string, unknown>, string][] = [
      [{ intentId, decision: 'approve' }, 'invalid_input'],
      [{ intentId, decision: 'approve', capability: '' }, 'invalid_input'],
      [{ intentId, decision: 'approve', capability: other.capability }, 'other_intent'],
      [{ intentId, decision: 'approve', capability: tampered }, 'forged'],
      [{ intentId, decision: 'approve', capability: 'dc1.nope' }, 'malformed'],
      [{ intentId: theirs.intentId, decision: 'approve', capability: theirs.capability }, 'forged'],
    ];
    for (const [args, why] of cases) {
      const error = errorOf(await call(handler, 'approval_card_decide', args));
      if (why === 'invalid_input') expect(error.code).toBe('invalid_input');
      else {
        expect(error).toMatchObject({ code: 'capability_required', details: { reason: why } });
        expect(error.message).toMatch(/^approval_card_decide is the approval card's, where a person decides/);
      }
      // Reading is refused the same way.
      if (why !== 'invalid_input') {
        const read = errorOf(await call(handler, 'approval_card_read', { intentId: args.intentId, capability: args.capability }));
        expect(read).toMatchObject({ code: 'capability_required', details: { reason: why } });
      }
    }
    expect(await statusOf(intentId)).toBe('pending_approval');
    expect(await statusOf(theirs.intentId)).toBe('pending_approval');
    await strangers.close();
    await handler.close();
  });

  it('replayed after use: the second decision finds the intent decided and changes nothing', async () => {
    const handler = handlerFor();
    const { intentId, capability } = await declared(handler);
    const first = await call(handler, 'approval_card_decide', { intentId, decision: 'approve', capability });
    expect(first.result.structuredContent).toMatchObject({
      status: 'pending',
      decidedBy: { via: 'the approval card in raw-test' },
    });
    for (const decision of ['reject', 'approve']) {
      const error = errorOf(await call(handler, 'approval_card_decide', { intentId, decision, capability }));
      expect(error).toMatchObject({ code: 'invalid_state', details: { intentId, status: 'pending' } });
      expect(error.message).toBe(
        `Intent ${intentId} is already approved by a person via the approval card in raw-test: nothing was changed.`,
      );
    }
    const intent = await world.api.intents.retrieve(intentId);
    expect(intent).toMatchObject({ status: 'pending', rejectedAt: null });
    // The card can still read it, to show what became of it.
    const read = await call(handler, 'approval_card_read', { intentId, capability });
    expect(read.result.structuredContent.intent).toMatchObject({ id: intentId, status: 'pending' });
    await handler.close();
  });

  it("another organization's intent is refused by the API, even with a capability signed by this server", async () => {
    const handler = handlerFor();
    const theirKey = newKey();
    const them = new Cardrail({ apiKey: theirKey, baseUrl: world.baseUrl, maxRetries: 0 });
    const owner = await them.customers.create({ email: 'grace@example.com' });
    const agent = await them.agents.create({ customerId: owner.id, name: 'Theirs' });
    const card = await them.cards.create({
      customerId: owner.id,
      agentId: agent.id,
      type: 'virtual',
      usage: 'multi',
      policy: { requireApproval: true },
    });
    const intent = await them.intents.create({ cardId: card.id, summary: 'Theirs', expectedAmount: 1_000 });
    // What a leaked secret would let someone sign: the capability is sound, the intent is not this organization's.
    const toolkit = createCardrailToolkit({ apiKey: world.apiKey, baseUrl: world.baseUrl, agentId: world.agentId });
    const signer = new DecisionCapabilities(new TextEncoder().encode(SECRET), bindingOf({ toolkit, subject: API_KEY_SUBJECT }));
    const capability = await signer.mint({ intentId: intent.id, expiresAt: Date.now() + 3_600_000 });
    const error = errorOf(await call(handler, 'approval_card_decide', { intentId: intent.id, decision: 'approve', capability }));
    expect(error).toMatchObject({ code: 'not_found', status: 404 });
    expect((await them.intents.retrieve(intent.id)).status).toBe('pending_approval');
    await handler.close();
  });

  it("another agent's intent is refused by the toolkit's scope, even with a capability signed by this server", async () => {
    const handler = handlerFor();
    const intent = await world.api.intents.create({ cardId: world.otherAgentCard, summary: 'Not yours', expectedAmount: 1_000 });
    const toolkit = createCardrailToolkit({ apiKey: world.apiKey, baseUrl: world.baseUrl, agentId: world.agentId });
    const signer = new DecisionCapabilities(new TextEncoder().encode(SECRET), bindingOf({ toolkit, subject: API_KEY_SUBJECT }));
    const capability = await signer.mint({ intentId: intent.id, expiresAt: Date.now() + 3_600_000 });
    for (const [name, args] of [
      ['approval_card_decide', { intentId: intent.id, decision: 'approve', capability }],
      ['approval_card_read', { intentId: intent.id, capability }],
    ] as const) {
      expect(errorOf(await call(handler, name, args))).toMatchObject({ code: 'out_of_scope', details: { intentId: intent.id } });
    }
    expect((await world.api.intents.retrieve(intent.id)).status).toBe(intent.status);
    await handler.close();
  });

  it('a reason over the spec’s maximum is refused naming the maximum; a reason with an approval too', async () => {
    const handler = handlerFor();
    const { intentId, capability } = await declared(handler);
    const long = errorOf(
      await call(handler, 'approval_card_decide', { intentId, decision: 'reject', capability, reason: 'x'.repeat(501) }),
    );
    expect(long).toMatchObject({
      code: 'invalid_input',
      details: { field: 'reason', reason: 'must be at most 500 characters long' },
    });
    const withApproval = errorOf(
      await call(handler, 'approval_card_decide', { intentId, decision: 'approve', capability, reason: 'ok' }),
    );
    expect(withApproval).toMatchObject({ code: 'invalid_input', details: { field: 'reason' } });
    expect(await statusOf(intentId)).toBe('pending_approval');
    // 500 is taken.
    const rejected = await call(handler, 'approval_card_decide', {
      intentId,
      decision: 'reject',
      capability,
      reason: 'y'.repeat(500),
    });
    expect(rejected.result.structuredContent).toMatchObject({ status: 'rejected', rejectionReason: 'y'.repeat(500) });
    await handler.close();
  });

  it('an expired capability decides nothing, and still reads what became of its intent', async () => {
    const handler = handlerFor();
    const { intentId } = await declared(handler);
    const toolkit = createCardrailToolkit({ apiKey: world.apiKey, baseUrl: world.baseUrl, agentId: world.agentId });
    const signer = new DecisionCapabilities(new TextEncoder().encode(SECRET), bindingOf({ toolkit, subject: API_KEY_SUBJECT }));
    const expired = await signer.mint({ intentId, expiresAt: Date.now() - 1_000 });
    const error = errorOf(await call(handler, 'approval_card_decide', { intentId, decision: 'approve', capability: expired }));
    expect(error).toMatchObject({ code: 'capability_required', details: { reason: 'expired' } });
    const read = await call(handler, 'approval_card_read', { intentId, capability: expired });
    expect(read.result.structuredContent.intent).toMatchObject({ id: intentId, status: 'pending_approval' });
    expect(await statusOf(intentId)).toBe('pending_approval');
    await handler.close();
  });
});
