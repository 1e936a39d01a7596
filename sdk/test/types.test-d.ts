import { describe, expectTypeOf, it } from 'vitest';
import type { CustomerApi, UserApi } from '@cardrail/spec';

type C = CustomerApi.components;
type U = UserApi.components;
type CustomerPaths = CustomerApi.paths;
type UserPaths = UserApi.paths;
import {
  type Cardrail,
  type CardrailUsers,
  constructEvent,
  unwrap,
  eventGuards,
  isEventType,
  type CardrailEvent,
  type CardrailEventType,
  type CustomerEvent,
  type CustomerEventType,
  type UserEvent,
  type UserEventType,
  type BodyArgs,
  type CardrailClient,
  type Page,
  type QueryArgs,
  type RequestOptions,
  type WithResponse,
} from '../src/index.js';

declare const cardrail: Cardrail;
declare const users: CardrailUsers;

describe('resource types come from the generated spec types', () => {
  it('types request bodies and responses of the customer variant', () => {
    expectTypeOf(cardrail.cards.update)
      .parameter(1)
      .toEqualTypeOf<CustomerPaths['/cards/{cardId}']['patch']['requestBody']['content']['application/json']>();
    expectTypeOf(cardrail.cards.freeze('card_1')).resolves.toEqualTypeOf<C['schemas']['Card']>();
    expectTypeOf(cardrail.cards.policy('card_1')).resolves.toEqualTypeOf<C['schemas']['CardPolicySummary']>();
    expectTypeOf(cardrail.customers.create).parameter(0).toEqualTypeOf<C['schemas']['CustomerCreate']>();
    expectTypeOf(cardrail.agents.delete('agt_1')).resolves.toEqualTypeOf<C['schemas']['Deleted']>();
    expectTypeOf(cardrail.simulate.clock.advance).parameter(0).toEqualTypeOf<C['schemas']['ClockAdvanceRequest']>();
    expectTypeOf(cardrail.settings.risk.update).parameter(0).toEqualTypeOf<C['schemas']['RiskConfigUpdate']>();
  });

  it('types the user variant with its own card and users namespace', () => {
    expectTypeOf(users.cards.create).parameter(0).toEqualTypeOf<U['schemas']['UserCardCreate']>();
    expectTypeOf(users.cards.retrieve('card_1')).resolves.toEqualTypeOf<U['schemas']['UserCard']>();
    expectTypeOf(users.cards.retrieve('card_1')).resolves.toHaveProperty('createdAt').toEqualTypeOf<number>();
    expectTypeOf(users.users.balances).returns.resolves.toEqualTypeOf<
      UserPaths['/users/{userId}/balances']['get']['responses'][200]['content']['application/json']
    >();
    expectTypeOf(users).not.toHaveProperty('customers');
    expectTypeOf(cardrail).not.toHaveProperty('users');
  });

  it('types list pages, their items and withResponse', async () => {
    const page = await cardrail.cards.list({ limit: 10 });
    expectTypeOf(page).toEqualTypeOf<Page<C['schemas']['Card']>>();
    for await (const card of cardrail.cards.list()) expectTypeOf(card).toEqualTypeOf<C['schemas']['Card']>();
    expectTypeOf(users.events.list().toArray({ limit: 5 }))
      .resolves.items.toHaveProperty('organizationId')
      .toBeString();
    expectTypeOf(cardrail.intents.approve('int_1').withResponse()).resolves.toEqualTypeOf<WithResponse<C['schemas']['Intent']>>();
    expectTypeOf(cardrail.raw.GET).toBeFunction();
  });

  it('types the payment tokens of both variants, their body alternatives and their events', async () => {
    expectTypeOf(cardrail.paymentTokens.create('card_1', { mpp: { challenge: 'Payment id="x"' } })).resolves.toEqualTypeOf<
      C['schemas']['PaymentToken']
    >();
    expectTypeOf(users.paymentTokens.retrieve('tok_1')).resolves.toHaveProperty('userId').toBeString();
    expectTypeOf(cardrail.paymentTokens.list('card_1')).resolves.toEqualTypeOf<Page<C['schemas']['PaymentToken']>>();
    const token = await cardrail.paymentTokens.revoke('tok_1');
    expectTypeOf(token.status).toEqualTypeOf<C['schemas']['PaymentTokenStatus']>();
    expectTypeOf(token.mppCredential).toEqualTypeOf<C['schemas']['MppCredential'] | null>();
    expectTypeOf(token.networkToken).toEqualTypeOf<C['schemas']['NetworkToken'] | null>();
    // @ts-expect-error max_amount is an integer of minor units, never a string
    void cardrail.paymentTokens.create('card_1', { acp: { allowance: { max_amount: '20.00' }, merchantName: 'x' } });
    // @ts-expect-error a token is presented by its number and cryptogram
    void cardrail.simulate.authorize({ token: { number: '4111111111111111' }, amount: 100, merchant: { name: 'x' } });
    const event = await constructEvent({ payload: '', header: '', secret: '' });
    if (event.type === 'payment_token.used') expectTypeOf(event.data.transactionId).toBeString();
  });

  it('rejects wrong fields, wrong values and missing arguments at compile time', () => {
    // @ts-expect-error `nickname` is not a field of CardUpdate
    void cardrail.cards.update('card_1', { nickname: 'x' });
    // @ts-expect-error a card cannot be updated to `closed`; closing is cards.close()
    void cardrail.cards.update('card_1', { status: 'closed' });
    // @ts-expect-error the user variant's card type is single or multi, not virtual
    void users.cards.create({ agentId: 'agt_1', type: 'virtual' });
    // @ts-expect-error CardCreate requires customerId, type and usage
    void cardrail.cards.create({ agentId: 'agt_1' });
    // @ts-expect-error advance takes { seconds }
    void cardrail.simulate.clock.advance({ minutes: 5 });
    // @ts-expect-error list filters are typed: `color` is not a filter of listCards
    void cardrail.cards.list({ color: 'red' });
    // @ts-expect-error limit is a number
    void cardrail.customers.list({ limit: '10' });
    // @ts-expect-error the raw client knows the spec's paths
    void cardrail.raw.GET('/cardz');
  });
});

describe('event types', () => {
  it('narrows CardrailEvent by type across both envelopes', async () => {
    const event = await constructEvent({ payload: '', header: '', secret: '' });
    expectTypeOf(event).toEqualTypeOf<CardrailEvent>();
    if (event.type === 'card.frozen') {
      expectTypeOf(event.data.reason).toEqualTypeOf<C['schemas']['CardFrozenReason']>();
      expectTypeOf(event.createdAt).toEqualTypeOf<string | number>();
    }
    if (event.type === 'transaction.settled') {
      // Only the general envelope has transaction.settled, so createdAt is the ISO string.
      expectTypeOf(event.createdAt).toEqualTypeOf<string>();
    }
    if (event.type === 'transaction.completed') {
      expectTypeOf(event.data).toEqualTypeOf<U['schemas']['TransactionCompletedEventData']>();
      expectTypeOf(event.organizationId).toBeString();
    }
  });

  it('types listed and retrieved events like delivered ones, per variant', async () => {
    expectTypeOf(cardrail.events.retrieve('evt_1')).resolves.toEqualTypeOf<CustomerEvent>();
    expectTypeOf(users.events.list()).resolves.toHaveProperty('data').items.toEqualTypeOf<UserEvent>();
    const stored = await cardrail.events.retrieve('evt_1');
    expectTypeOf(stored.createdAt).toEqualTypeOf<string>();
    if (stored.type === 'transaction.created') {
      expectTypeOf(stored.data.amount).toBeNumber();
      // @ts-expect-error transaction.created data has no declinedReason
      void stored.data.declinedReason;
    }
    // @ts-expect-error the general envelope has no transaction.completed (that is the catalog name)
    if (stored.type === 'transaction.completed') void stored;
  });

  it('has one type guard per event type, and refuses unknown types', () => {
    const event = {} as CardrailEvent;
    if (isEventType(event, 'anomaly.velocity')) {
      expectTypeOf(event.type).toEqualTypeOf<'anomaly.velocity'>();
    }
    if (eventGuards['dispute.resolved'](event)) {
      expectTypeOf(event.type).toEqualTypeOf<'dispute.resolved'>();
    }
    expectTypeOf<'card.frozen'>().toExtend<CardrailEventType>();
    expectTypeOf<'card.melted'>().not.toExtend<CardrailEventType>();
    // @ts-expect-error `card.melted` is not an event type
    isEventType(event, 'card.melted');
    // @ts-expect-error no guard exists for an unknown type
    void eventGuards['card.melted'];
    if (event.type === 'card.frozen') {
      // @ts-expect-error card.frozen data has no amount
      void event.data.amount;
    }
  });
});

describe('whether a body or query argument is optional comes from the spec', () => {
  type Json<T> = { content: { 'application/json': T } };

  it('derives it from `requestBody` and `query` being optional in the generated operation', () => {
    expectTypeOf<BodyArgs<{ requestBody: Json<{ a: string }> }>>().toEqualTypeOf<
      [body: { a: string }, options?: RequestOptions]
    >();
    expectTypeOf<BodyArgs<{ requestBody?: Json<{ a: string }> }>>().toEqualTypeOf<
      [body?: { a: string }, options?: RequestOptions]
    >();
    expectTypeOf<QueryArgs<{ parameters: { query: { since: string; limit?: number } } }>>().toEqualTypeOf<
      [query: { since: string; limit?: number }, options?: RequestOptions]
    >();
    expectTypeOf<QueryArgs<{ parameters: { query?: { limit?: number } } }>>().toEqualTypeOf<
      [query?: { limit?: number }, options?: RequestOptions]
    >();
  });

  it('makes the body optional exactly where the spec does', () => {
    type ApiKeyCreate = CustomerPaths['/api-keys']['post'];
    expectTypeOf(cardrail.apiKeys.create).parameters.toEqualTypeOf<
      [body?: NonNullable<ApiKeyCreate['requestBody']>['content']['application/json'], options?: RequestOptions]
    >();
    void cardrail.apiKeys.create();
    void cardrail.cards.credentials('card_1');
    void cardrail.intents.reject('int_1');
    void users.simulate.settle('txn_1');
    void cardrail.cards.list();
    void users.webhooks.deliveries.list('wh_1');
    // @ts-expect-error the spec requires a CardUpdate body
    void cardrail.cards.update('card_1');
    // @ts-expect-error the spec requires a body to create a customer
    void cardrail.customers.create();
    // @ts-expect-error the spec requires a body to resolve a dispute
    void users.simulate.resolveDispute('dsp_1');
    // @ts-expect-error a withdrawal needs a body
    void users.withdrawals.create('usr_1');
  });

  it('requires the limit of toArray', () => {
    // @ts-expect-error toArray needs { limit } so that a walk is always bounded
    void cardrail.cards.list().toArray();
    // @ts-expect-error limit is required
    void cardrail.cards.list().toArray({});
  });
});

describe('the shared client base', () => {
  it('lets code accept either variant', () => {
    expectTypeOf(cardrail).toExtend<CardrailClient<CustomerPaths>>();
    expectTypeOf(users).toExtend<CardrailClient<UserPaths>>();
    const freeze = async (client: Cardrail | CardrailUsers, cardId: string) => (await client.cards.freeze(cardId)).status;
    expectTypeOf(freeze(users, 'card_1')).resolves.toBeString();
    expectTypeOf(users.users.create).parameter(0).toEqualTypeOf<U['schemas']['CustomerCreate']>();
  });

  it('keeps the variant through withOptions', () => {
    expectTypeOf(cardrail.withOptions({ timeoutMs: 5_000 })).toEqualTypeOf<Cardrail>();
    expectTypeOf(users.withOptions({ maxRetries: 0 })).toEqualTypeOf<CardrailUsers>();
    // @ts-expect-error `timeout` is not a client option (it is `timeoutMs`)
    void cardrail.withOptions({ timeout: 5_000 });
  });
});

describe('event names per variant', () => {
  it('subscribes webhooks to exactly the event types of the client’s variant', () => {
    void cardrail.webhooks.create({ url: 'https://example.test/hooks', events: ['transaction.created', 'intent.created', '*'] });
    void users.webhooks.create({ url: 'https://example.test/hooks', events: ['transaction.authorized', '*'] });
    // @ts-expect-error the customer variant calls an authorization `transaction.created`
    void cardrail.webhooks.create({ url: 'https://example.test/hooks', events: ['transaction.authorized'] });
    // @ts-expect-error the user variant calls it `transaction.authorized`
    void users.webhooks.create({ url: 'https://example.test/hooks', events: ['transaction.created'] });
    // @ts-expect-error no such event in either variant
    void cardrail.webhooks.update('wh_1', { events: ['not.an.event'] });
    // @ts-expect-error no such event in either variant
    void users.webhooks.update('wh_1', { events: ['not.an.event'] });
  });

  it('exports each variant’s event union and names', () => {
    expectTypeOf<Extract<CustomerEvent, { type: 'transaction.created' }>['data']['merchant']>().toEqualTypeOf<{
      name: string;
      mcc: string | null;
    }>();
    expectTypeOf<'transaction.authorized'>().toExtend<UserEventType>();
    expectTypeOf<'transaction.authorized'>().not.toExtend<CustomerEventType>();
  });

  it('names the owner `userId` in the user variant', () => {
    void users.agents.create({ userId: 'cus_1', name: 'bot' });
    // @ts-expect-error the user variant names the owner `userId`
    void users.agents.create({ customerId: 'cus_1', name: 'bot' });
    void cardrail.agents.create({ customerId: 'cus_1', name: 'bot' });
  });
});

describe('webhook verification', () => {
  it("types a client's unwrap in its variant's envelope, and the standalone one across both", () => {
    expectTypeOf(cardrail.webhooks.unwrap('{}', new Headers(), 'whsec_x')).resolves.toEqualTypeOf<CustomerEvent>();
    expectTypeOf(users.webhooks.unwrap('{}', { 'webhook-id': 'x' }, ['whsec_x'])).resolves.toEqualTypeOf<UserEvent>();
    expectTypeOf(unwrap('{}', new Headers(), 'whsec_x')).resolves.toEqualTypeOf<CardrailEvent>();
  });

  it("takes the request's headers as frameworks give them: Headers, node:http's req.headers, a record of strings", () => {
    const nodeHeaders: import('node:http').IncomingHttpHeaders = {};
    expectTypeOf(constructEvent).toBeCallableWith({ payload: '', headers: nodeHeaders, secret: 'whsec_x' });
    expectTypeOf(constructEvent).toBeCallableWith({ payload: '', headers: new Headers(), secret: 'whsec_x' });
    expectTypeOf(constructEvent).toBeCallableWith({ payload: '', headers: { 'webhook-id': 'x' }, secret: 'whsec_x' });
    expectTypeOf(constructEvent).toBeCallableWith({ payload: '', header: 't=1,v1=x', secret: 'whsec_x' });
    // @ts-expect-error headers must be an object of header values, not a string
    constructEvent({ payload: '', headers: 'webhook-id: x', secret: 'whsec_x' });
  });
});
