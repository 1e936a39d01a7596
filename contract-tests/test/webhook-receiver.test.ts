import { generateWebhookHeaders } from '@cardrail/sdk/webhooks';
import { describe, expect, it } from 'vitest';
import { ContractRecorder } from '../src/recorder.js';
import { WebhookReceiver } from '../src/webhook-receiver.js';

/** The receiver is the suites' judge of deliveries; it must catch a bad signature and a body off the spec. */
describe('the webhook receiver reports deliveries that break the contract', () => {
  const secret = 'whsec_Q2FyZHJhaWxTaWduaW5nU2VjcmV0MTIz';
  const event = {
    id: 'evt_8KlJ2hG5fD',
    type: 'card.frozen',
    organizationId: 'org_1',
    createdAt: 1763726400000,
    data: { cardId: 'card_9HbV3nK2qR', agentId: 'agt_7LmQ2wX9vB', reason: 'manual', frozenBy: 'api' },
  };

  async function deliver(
    receiver: WebhookReceiver,
    body: string,
    signingSecret: string,
    options: { path?: string; standardWebhooks?: boolean } = {},
  ): Promise<void> {
    const headers = await generateWebhookHeaders({
      payload: body,
      secret: signingSecret,
      id: 'whd_1AsD4fG7hJ',
      standardWebhooks: options.standardWebhooks ?? true,
    });
    await receiver.handle(new Request(`http://hooks.invalid${options.path ?? '/hooks/user'}`, { method: 'POST', body, headers }));
  }

  it('accepts a delivery signed with a current secret and valid for its webhooks: schema', async () => {
    const recorder = new ContractRecorder({ suite: 'receiver-ok' });
    const receiver = new WebhookReceiver(recorder);
    receiver.addSecret('user', secret);
    await deliver(receiver, JSON.stringify(event), secret);
    expect(recorder.violations).toEqual([]);
    expect(recorder.coverage.eventsSeen('catalog')).toEqual(new Set(['card.frozen']));
  });

  it('reports a delivery signed with another secret', async () => {
    const recorder = new ContractRecorder({ suite: 'receiver-bad-signature' });
    const receiver = new WebhookReceiver(recorder);
    receiver.addSecret('user', secret);
    await deliver(receiver, JSON.stringify(event), 'whsec_someoneElsesSecretXXXXXXXXXXXXX');
    expect(recorder.violations.map((v) => v.check)).toEqual(['webhook_signature']);
  });

  it('reports a delivery without the Standard Webhooks headers, and one that sends them to a webhook that opted out', async () => {
    const recorder = new ContractRecorder({ suite: 'receiver-standard-webhooks' });
    const receiver = new WebhookReceiver(recorder);
    receiver.addSecret('user', secret);
    await deliver(receiver, JSON.stringify(event), secret, { standardWebhooks: false });
    await deliver(receiver, JSON.stringify(event), secret, { path: '/hooks/user/plain' });
    await deliver(receiver, JSON.stringify(event), secret, { path: '/hooks/user/plain', standardWebhooks: false });
    expect(recorder.violations.map((v) => [v.check, v.message])).toEqual([
      ['webhook_signature', expect.stringContaining('incomplete: only none of')],
      ['webhook_signature', expect.stringContaining('standardWebhooks: false was sent webhook-id')],
    ]);
  });

  it('reports a delivery whose two schemes disagree', async () => {
    const recorder = new ContractRecorder({ suite: 'receiver-conflict' });
    const receiver = new WebhookReceiver(recorder);
    receiver.addSecret('user', secret);
    const body = JSON.stringify(event);
    const headers = await generateWebhookHeaders({ payload: body, secret, id: 'whd_1AsD4fG7hJ' });
    await receiver.handle(
      new Request('http://hooks.invalid/hooks/user', { method: 'POST', body, headers: { ...headers, 'webhook-id': 'whd_x' } }),
    );
    expect(recorder.violations).toEqual([
      expect.objectContaining({ check: 'webhook_signature', message: expect.stringContaining('disagree') }),
    ]);
  });

  it('reports a delivery whose body does not match its event schema', async () => {
    const recorder = new ContractRecorder({ suite: 'receiver-bad-body' });
    const receiver = new WebhookReceiver(recorder);
    receiver.addSecret('user', secret);
    const { reason: _dropped, ...data } = event.data;
    await deliver(receiver, JSON.stringify({ ...event, data }), secret);
    expect(recorder.violations).toEqual([
      expect.objectContaining({ check: 'webhook_schema', message: expect.stringContaining('reason') }),
    ]);
  });
});
