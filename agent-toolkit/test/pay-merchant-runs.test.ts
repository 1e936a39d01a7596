// Scripted agent runs of `pay_merchant` over MCP, no model: the test plays the agent's client. (a) The agent
// declares an intent and pays an MPP card merchant's 402; (b) it pays an ACP checkout through the seller's PSP. The
// merchants are the fakes of @cardrail/mock-server/merchants, served on 127.0.0.1. Each run ends with the transaction
// matched to its intent and a signed transaction.created verified on a webhook; a second use of the token is declined
// token_used; and the card's number appears nowhere in what the model received.
import { closedMandateFor, createCredentialProvider, createMandateAgent } from '@cardrail/mock-server';
import { createAcpMerchant, createMppCardMerchant } from '@cardrail/mock-server/merchants';
import { constructEvent } from '@cardrail/sdk/webhooks';
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCardrailToolkit } from '../src/index.js';
import { createCardrailMcpServer } from '../src/mcp/index.js';
import { startReceiver, type WebhookReceiver } from './support/receiver.js';
import { serveFetchHandler } from './support/serve-fetch-handler.js';
import { startWorld, type World } from './support/world.js';

let world: World;
let receiver: WebhookReceiver;
let secret: string;
const servers: Awaited<ReturnType<typeof serveFetchHandler>>[] = [];

beforeAll(async () => {
  [world, receiver] = await Promise.all([startWorld(), startReceiver()]);
  secret = (await world.api.webhooks.create({ url: receiver.url, events: ['transaction.created'] })).secret;
});
afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
  await receiver?.close();
  await world?.close();
});

async function serve() {
  const server = await serveFetchHandler();
  servers.push(server);
  return server;
}

/** An MCP client of `cardrail-mcp` for the world's agent, and every result the model received, as text. */
async function agent(payments: Parameters<typeof createCardrailToolkit>[0]['payments'], cardId = world.plainCard) {
  const toolkit = createCardrailToolkit({
    apiKey: world.apiKey,
    baseUrl: world.baseUrl,
    agentId: world.agentId,
    cardId,
    payments,
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createCardrailMcpServer(toolkit).connect(serverSide);
  const client = new Client({ name: 'scripted-agent', version: '0.0.0' });
  await client.connect(clientSide);
  const seen: string[] = [JSON.stringify(await client.listTools())];
  const call = async (name: string, args: Record<string, unknown>) => {
    const result = await client.callTool({ name, arguments: args });
    seen.push(JSON.stringify(result));
    if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content)}`);
    return result.structuredContent as Record<string, any>;
  };
  return { call, seen, close: () => client.close() };
}

/** The signed transaction.created of `transactionId`, verified with the webhook's secret. */
/**
 * A card whose policy requires a mandate, the customer trusting a new credential provider, and the open mandate that
 * provider signs for an intent of the card, exported for a new agent key.
 */
async function mandatedCard(purchase: { summary: string; expectedAmount: number; expectedMerchant?: string }) {
  const { api } = world;
  const card = await api.cards.create({
    customerId: world.customerId,
    agentId: world.agentId,
    type: 'virtual',
    usage: 'multi',
    policy: { requireMandate: true },
  });
  const provider = await createCredentialProvider();
  const mandateAgent = await createMandateAgent();
  await api.customers.setMandateIssuers(world.customerId, provider.jwks);
  const intent = await api.intents.create({ cardId: card.id, ...purchase });
  const exported = await api.intents.mandate(intent.id, { agentKey: mandateAgent.publicJwk });
  return { cardId: card.id, intent, exported, openMandate: await provider.issue(exported.claims), mandateAgent };
}

async function verifiedTransactionEvent(transactionId: string) {
  await world.running.mock.idle();
  const events = await Promise.all(
    receiver.deliveries.map((delivery) => constructEvent({ payload: delivery.body, header: delivery.signature, secret })),
  );
  return events.find((event) => event.type === 'transaction.created' && event.data.transactionId === transactionId);
}

async function expectPanNeverSeen(seen: string[], tokenNumber: string) {
  const { pan } = await world.api.cards.credentials(world.plainCard, {});
  const everything = seen.join('\n');
  expect(everything).not.toContain(pan);
  expect(everything).not.toContain(tokenNumber);
}

describe('scripted agent runs of pay_merchant', () => {
  it('(a) MCP: declares an intent, pays an MPP card 402, and the transaction matches the intent', async () => {
    const server = await serve();
    const url = `${server.url}/gpu/jobs`;
    const merchant = await createMppCardMerchant({ acquirer: world.api, url, amount: 2500, merchantName: 'Example GPU Cloud' });
    server.use(merchant.handle);
    const { call, seen, close } = await agent({ merchants: [{ origin: server.url }] });

    const intent = await call('declare_intent', {
      summary: 'One GPU job',
      expectedAmount: 2500,
      expectedMerchant: 'Example GPU Cloud',
    });
    const paid = await call('pay_merchant', { protocol: 'mpp', url, method: 'POST', body: '{"gpus":1}', intentId: intent.id });
    expect(paid).toMatchObject({ status: 'used', intentId: intent.id, networkToken: null, mppCredential: null });
    expect(paid.merchantResponse).toMatchObject({
      status: 200,
      body: { paid: true },
      receipt: { status: 'success', reference: paid.transactionId },
    });

    expect(await world.api.transactions.retrieve(paid.transactionId)).toMatchObject({
      intentId: intent.id,
      paymentTokenId: paid.id,
      amount: 2500,
    });
    expect(await call('get_intent', { intentId: intent.id })).toMatchObject({ status: 'matched' });
    expect((await verifiedTransactionEvent(paid.transactionId))?.data).toMatchObject({ cardId: world.plainCard, amount: 2500 });

    const [payment] = merchant.payments;
    const again = await world.api.simulate.authorize({
      token: { number: payment?.token.paymentToken ?? '', cryptogram: payment?.dynamicDataValue ?? '' },
      amount: 2500,
      merchant: { name: 'Example GPU Cloud' },
    });
    expect(again).toMatchObject({ status: 'declined', declinedReason: 'token_used' });
    await expectPanNeverSeen(seen, payment?.token.paymentToken ?? '');
    await close();
  });

  it('(b) MCP: pays an ACP checkout through the PSP vault, and the transaction matches the intent', async () => {
    const [seller, psp] = [await serve(), await serve()];
    const merchant = createAcpMerchant({
      acquirer: world.api,
      sellerUrl: seller.url,
      pspUrl: psp.url,
      merchantName: 'Acme Store',
      merchantId: 'acme_store',
      amount: 4300,
    });
    seller.use(merchant.handle);
    psp.use(merchant.handle);
    const { call, seen, close } = await agent({
      merchants: [
        { origin: seller.url, name: 'Acme Store' },
        { origin: psp.url, pspApiKey: 'psp_test_key' },
      ],
    });
    const created = await merchant.handle(new Request(`${seller.url}/checkout_sessions`, { method: 'POST', body: '{}' }));
    const { id: sessionId } = (await created.json()) as { id: string };

    const intent = await call('declare_intent', { summary: 'A jacket', expectedAmount: 4300, expectedMerchant: 'Acme Store' });
    const paid = await call('pay_merchant', {
      protocol: 'acp',
      url: `${seller.url}/checkout_sessions/${sessionId}`,
      intentId: intent.id,
    });
    expect(paid).toMatchObject({ status: 'used', protocol: 'acp', checkoutSessionId: sessionId, networkToken: null });
    expect(paid.merchantResponse).toMatchObject({
      status: 200,
      body: { status: 'completed', order: { checkout_session_id: sessionId } },
      receipt: null,
    });

    expect(await world.api.transactions.retrieve(paid.transactionId)).toMatchObject({
      intentId: intent.id,
      paymentTokenId: paid.id,
      amount: 4300,
    });
    expect(await call('get_intent', { intentId: intent.id })).toMatchObject({ status: 'matched' });
    expect((await verifiedTransactionEvent(paid.transactionId))?.data).toMatchObject({ cardId: world.plainCard, amount: 4300 });

    const [vaulted] = [...merchant.vault.values()];
    const again = await world.api.simulate.authorize({
      token: { number: vaulted?.paymentMethod.number ?? '', cryptogram: vaulted?.paymentMethod.cryptogram ?? '' },
      amount: 100,
      merchant: { name: 'Acme Store', id: 'acme_store' },
    });
    expect(again).toMatchObject({ status: 'declined', declinedReason: 'token_used' });
    await expectPanNeverSeen(seen, vaulted?.paymentMethod.number ?? '');
    await close();
  });

  it('(c) MCP: pays an MPP 402 under the AP2 mandate the developer makes, on a card that requires one', async () => {
    const { api } = world;
    const { cardId, intent, exported, openMandate, mandateAgent } = await mandatedCard({
      summary: 'GPU',
      expectedAmount: 2500,
      expectedMerchant: 'Example GPU Cloud',
    });
    const server = await serve();
    const url = `${server.url}/gpu/mandated`;
    server.use((await createMppCardMerchant({ acquirer: api, url, amount: 2500, merchantName: 'Example GPU Cloud' })).handle);

    const unmandated = await agent({ merchants: [{ origin: server.url }] }, cardId);
    await expect(unmandated.call('pay_merchant', { protocol: 'mpp', url, intentId: intent.id })).rejects.toThrow(
      /payment_declined.*mandate_required/,
    );
    await unmandated.close();

    const { call, seen, close } = await agent(
      {
        merchants: [{ origin: server.url }],
        agentMandate: (payment) =>
          mandateAgent.present(
            openMandate,
            closedMandateFor({ ...payment, merchant: { name: payment.merchant.name }, cardId: payment.cardId }),
            { aud: `urn:cardrail:card:${payment.cardId}` },
          ),
      },
      cardId,
    );
    const paid = await call('pay_merchant', { protocol: 'mpp', url, intentId: intent.id });
    expect(paid).toMatchObject({ status: 'used', mandate: { openMandateHash: exported.openMandateHash } });
    expect(await api.transactions.retrieve(paid.transactionId)).toMatchObject({
      status: 'pending',
      mandate: { openMandateHash: exported.openMandateHash },
    });
    expect(seen.join('\n')).not.toContain(openMandate);
    await close();
  });

  it('(d) MCP: pays an ACP checkout under the AP2 mandate, made for the allowance the seller asks for', async () => {
    const { api } = world;
    // No expected merchant: the seller is named by its PSP id, which the closed mandate's payee gives.
    const { cardId, exported, openMandate, mandateAgent } = await mandatedCard({ summary: 'A coat', expectedAmount: 4300 });
    const [seller, psp] = [await serve(), await serve()];
    const merchant = createAcpMerchant({
      acquirer: api,
      sellerUrl: seller.url,
      pspUrl: psp.url,
      merchantName: 'Coat Store',
      merchantId: 'coat_store',
      amount: 4300,
    });
    seller.use(merchant.handle);
    psp.use(merchant.handle);
    const asked: unknown[] = [];
    const { call, close } = await agent(
      {
        merchants: [
          { origin: seller.url, name: 'Coat Store' },
          { origin: psp.url, pspApiKey: 'psp_test_key' },
        ],
        agentMandate: (payment) => {
          asked.push(payment);
          const closed = closedMandateFor({
            ...payment,
            merchant: { name: payment.merchant.name, id: payment.merchant.id ?? '' },
          });
          return mandateAgent.present(openMandate, closed, { aud: `urn:cardrail:card:${payment.cardId}` });
        },
      },
      cardId,
    );
    const created = await merchant.handle(new Request(`${seller.url}/checkout_sessions`, { method: 'POST', body: '{}' }));
    const { id: sessionId } = (await created.json()) as { id: string };
    const paid = await call('pay_merchant', { protocol: 'acp', url: `${seller.url}/checkout_sessions/${sessionId}` });
    expect(asked).toEqual([{ cardId, amount: 4300, currency: 'usd', merchant: { name: 'Coat Store', id: 'coat_store' } }]);
    expect(paid).toMatchObject({ status: 'used', mandate: { openMandateHash: exported.openMandateHash } });
    expect(await api.transactions.retrieve(paid.transactionId)).toMatchObject({
      mandate: { openMandateHash: exported.openMandateHash },
    });
    await close();
  });

  it('refuses a URL the developer did not allow before anything is sent (no SSRF), and redirects are not followed', async () => {
    const server = await serve();
    const requests: string[] = [];
    server.use(async (request) => {
      requests.push(request.url);
      return new Response(null, { status: 302, headers: { Location: 'http://169.254.169.254/latest/meta-data/' } });
    });
    const { call, close } = await agent({ merchants: [{ origin: server.url }] });
    await expect(call('pay_merchant', { protocol: 'mpp', url: 'http://169.254.169.254/latest/meta-data/' })).rejects.toThrow(
      /merchant_not_allowed/,
    );
    await expect(call('pay_merchant', { protocol: 'mpp', url: `${server.url}/go` })).rejects.toThrow(/no_payment_requested/);
    expect(requests).toEqual([`${server.url}/go`]);
    await close();
  });
});
