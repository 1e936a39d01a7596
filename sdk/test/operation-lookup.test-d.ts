// The resource methods are typed by lookups in the generated paths (src/core/operation-lookup.ts): the compiler
// checks each method's declared named types against them, per variant, where the method sends. This file checks the
// lookups themselves against the generated operations (by operationId), a few methods of each shape, and that code
// written for either client (a union of both, or CardrailClient) calls the methods they share without casts.
import type { CustomerApi, UserApi } from '@cardrail/spec';
import { describe, expectTypeOf, it } from 'vitest';
import type { BodyAt, CallParamsAt, ItemAt, PageParamsAt, QueryAt, ResultAt } from '../src/core/operation-lookup.js';
import type { OWNER_ROUTES } from '../src/resources/owner-routes.js';
import type {
  APIPromise,
  Cardrail,
  CardrailClient,
  CardrailUsers,
  CustomerEvent,
  CustomerPaths,
  PagePromise,
  UserEvent,
  UserPaths,
  VariantPaths,
} from '../src/index.js';

type C = CustomerApi.operations;
type U = UserApi.operations;
type Json<Content> = Content extends { content: { 'application/json': infer Body } } ? Body : never;
type Routes = typeof OWNER_ROUTES;

declare const cardrail: Cardrail;
declare const users: CardrailUsers;
declare const either: Cardrail | CardrailUsers;
declare const base: CardrailClient;

describe('the lookups give the generated operation types', () => {
  it('results: 200 or 201, per variant', () => {
    expectTypeOf<ResultAt<CustomerPaths, 'post', '/cards'>>().toEqualTypeOf<Json<C['createCard']['responses'][201]>>();
    expectTypeOf<ResultAt<UserPaths, 'post', '/cards'>>().toEqualTypeOf<Json<U['createCard']['responses'][201]>>();
    expectTypeOf<ResultAt<CustomerPaths, 'get', '/cards/{cardId}'>>().toEqualTypeOf<Json<C['getCard']['responses'][200]>>();
    expectTypeOf<ResultAt<UserPaths, 'delete', '/agents/{agentId}'>>().toEqualTypeOf<Json<U['deleteAgent']['responses'][200]>>();
    // The two variants' cards differ (createdAt: ISO string or epoch ms), and each lookup keeps its own.
    expectTypeOf<ResultAt<UserPaths, 'get', '/cards/{cardId}'>>().not.toEqualTypeOf<
      ResultAt<CustomerPaths, 'get', '/cards/{cardId}'>
    >();
  });

  it('bodies, and whether they are required, as the operation says', () => {
    expectTypeOf<BodyAt<CustomerPaths, 'post', '/cards'>>().toEqualTypeOf<Json<C['createCard']['requestBody']>>();
    expectTypeOf<BodyAt<UserPaths, 'post', '/cards'>>().toEqualTypeOf<Json<U['createCard']['requestBody']>>();
    expectTypeOf<CallParamsAt<CustomerPaths, 'post', '/cards'>>().toEqualTypeOf<
      { path?: undefined } & { body: BodyAt<CustomerPaths, 'post', '/cards'> }
    >();
    type Credentials = CallParamsAt<CustomerPaths, 'post', '/cards/{cardId}/credentials'>;
    expectTypeOf<Credentials['body']>().toEqualTypeOf<Json<NonNullable<C['createCardCredentials']['requestBody']>> | undefined>();
    expectTypeOf<CallParamsAt<CustomerPaths, 'post', '/cards/{cardId}/freeze'>['body']>().toEqualTypeOf<undefined>();
  });

  it('path ids as the operation names them; both names where the variants differ', () => {
    expectTypeOf<CallParamsAt<CustomerPaths, 'post', '/cards/{cardId}/freeze'>['path']>().toEqualTypeOf<
      C['freezeCard']['parameters']['path'] & U['freezeCard']['parameters']['path']
    >();
    expectTypeOf<CallParamsAt<UserPaths, 'get', Routes['item']>['path']>().toEqualTypeOf<
      C['getCustomer']['parameters']['path'] & U['getUser']['parameters']['path']
    >();
    expectTypeOf<CallParamsAt<UserPaths, 'get', '/webhooks/{webhookId}'>['path']>().toEqualTypeOf<{ webhookId: string }>();
  });

  it("the owner routes: each variant's own path", () => {
    expectTypeOf<ResultAt<CustomerPaths, 'get', Routes['item']>>().toEqualTypeOf<Json<C['getCustomer']['responses'][200]>>();
    expectTypeOf<ResultAt<UserPaths, 'get', Routes['item']>>().toEqualTypeOf<Json<U['getUser']['responses'][200]>>();
    expectTypeOf<BodyAt<UserPaths, 'post', Routes['withdrawals']>>().toEqualTypeOf<
      Json<U['createUserWithdrawal']['requestBody']>
    >();
  });

  it('list queries and items', () => {
    expectTypeOf<QueryAt<CustomerPaths, '/cards'>>().toEqualTypeOf<NonNullable<C['listCards']['parameters']['query']>>();
    expectTypeOf<QueryAt<UserPaths, Routes['collection']>>().toEqualTypeOf<NonNullable<U['listUsers']['parameters']['query']>>();
    expectTypeOf<ItemAt<UserPaths, '/transactions'>>().toEqualTypeOf<
      Json<U['listTransactions']['responses'][200]>['data'][number]
    >();
    expectTypeOf<PageParamsAt<CustomerPaths, '/webhooks/{webhookId}/deliveries'>['path']>().toEqualTypeOf<{
      webhookId: string;
    }>();
  });

  it("both variants' types where the variant is not known", () => {
    expectTypeOf<ResultAt<VariantPaths, 'get', '/cards/{cardId}'>>().toEqualTypeOf<
      Json<C['getCard']['responses'][200]> | Json<U['getCard']['responses'][200]>
    >();
  });
});

describe('methods take and return the named types the lookups check', () => {
  it('one method of each shape', () => {
    expectTypeOf(cardrail.cards.create).parameter(0).toEqualTypeOf<BodyAt<CustomerPaths, 'post', '/cards'>>();
    expectTypeOf(users.cards.update).parameter(1).toEqualTypeOf<BodyAt<UserPaths, 'patch', '/cards/{cardId}'>>();
    expectTypeOf(users.cards.update).returns.toEqualTypeOf<APIPromise<ResultAt<UserPaths, 'patch', '/cards/{cardId}'>>>();
    expectTypeOf(cardrail.cards.list).parameter(0).toEqualTypeOf<QueryAt<CustomerPaths, '/cards'> | undefined>();
    expectTypeOf(users.webhooks.deliveries.list).returns.toEqualTypeOf<
      PagePromise<ItemAt<UserPaths, '/webhooks/{webhookId}/deliveries'>>
    >();
    expectTypeOf(users.users.retrieve).returns.toEqualTypeOf<APIPromise<ResultAt<UserPaths, 'get', Routes['item']>>>();
    expectTypeOf(cardrail.withdrawals.create).parameter(1).toEqualTypeOf<BodyAt<CustomerPaths, 'post', Routes['withdrawals']>>();
  });

  it('events: the delivered envelopes, which the spec’s event schema is assignable to', () => {
    expectTypeOf(cardrail.events.retrieve).returns.toEqualTypeOf<APIPromise<CustomerEvent>>();
    expectTypeOf<ResultAt<UserPaths, 'get', '/events/{eventId}'>>().toExtend<UserEvent>();
  });
});

describe('code for either client calls what they share, without casts', () => {
  it('a union of both clients', async () => {
    const card = await either.cards.retrieve('card_1');
    expectTypeOf(card).toEqualTypeOf<
      ResultAt<CustomerPaths, 'get', '/cards/{cardId}'> | ResultAt<UserPaths, 'get', '/cards/{cardId}'>
    >();
    await either.cards.freeze('card_1');
    await either.cards.close('card_1', { idempotencyKey: 'close-1' });
    await either.cards.update('card_1', { status: 'frozen' });
    await either.agents.suspend('agt_1');
    await either.agents.update('agt_1', { name: 'Renamed' });
    await either.intents.approve('int_1');
    await either.intents.create({ cardId: 'card_1', summary: 'GPU credits', expectedAmount: 2_500 });
    await either.transactions.retrieve('txn_1');
    await either.spend.evaluate({ cardId: 'card_1', amount: 100, merchant: { name: 'Shop', mcc: '5734' } });
    await either.settings.risk.update({ preset: 'strict' });
    await either.webhooks.update('wh_1', { events: ['card.frozen'], status: 'active' });
    await either.webhooks.deliveries.retry('wh_1', 'whd_1');
    await either.events.list({ type: 'card.frozen', limit: 1 });
    await either.apiKeys.revoke('key_1');
    await either.withdrawals.retrieve('wd_1');
    await either.simulate.clock.advance({ seconds: 60 });
    await either.simulate.settle('txn_1');
    for await (const webhook of either.webhooks.list({ limit: 100 })) expectTypeOf(webhook.url).toBeString();
    const page = await either.events.list({ limit: 1 });
    expectTypeOf(page.data).toEqualTypeOf<CustomerEvent[] | UserEvent[]>();
  });

  it('a parameter typed plain CardrailClient (its default type argument) takes either client', async () => {
    const freeze = (client: CardrailClient, cardId: string) => client.cards.freeze(cardId);
    await freeze(cardrail, 'card_1');
    await freeze(users, 'card_1');
    await freeze(either, 'card_1');
  });

  it('CardrailClient, with either variant’s parameters', async () => {
    expectTypeOf(cardrail).toExtend<CardrailClient>();
    expectTypeOf(users).toExtend<CardrailClient>();
    expectTypeOf(either).toExtend<CardrailClient>();
    await base.cards.create({ customerId: 'cus_1', agentId: 'agt_1', type: 'virtual', usage: 'multi' });
    await base.cards.create({ agentId: 'agt_1' });
    expectTypeOf(base.cards.retrieve('card_1')).resolves.toEqualTypeOf<
      ResultAt<CustomerPaths, 'get', '/cards/{cardId}'> | ResultAt<UserPaths, 'get', '/cards/{cardId}'>
    >();
  });
});
