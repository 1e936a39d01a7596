// The exact type of every resource method of both clients, written out from the generated spec types: each method
// is one declaration (method and path) from which its parameters and result are derived, so this pins what a
// declaration must produce: the ids first, in path order, then the body (required or optional as the spec says) or
// the list filters, then the per-call options; the spec's response, or a page of the list's items.
import { describe, expectTypeOf, it } from 'vitest';
import type {
  APIPromise,
  Cardrail,
  CardrailUsers,
  CustomerEvent,
  CustomerPaths,
  PagePromise,
  RequestOptions,
  UserEvent,
  UserPaths,
  WaitForDecisionOptions,
} from '../src/index.js';

declare const cardrail: Cardrail;
declare const users: CardrailUsers;

type Json<T> = T extends { content: { 'application/json': infer Body } } ? Body : never;
type Op<Paths, Path extends keyof Paths, Method extends keyof Paths[Path]> = Paths[Path][Method];
/** The success body (200 or 201) of an operation. */
type Out<O> = O extends { responses: { 200: infer Ok } }
  ? Json<Ok>
  : O extends { responses: { 201: infer Created } }
    ? Json<Created>
    : never;
type Body<O> = O extends { requestBody?: infer B } ? Json<NonNullable<B>> : never;
type Query<O> = O extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;
type Item<O> = Out<O> extends { data: Array<infer I> } ? I : never;

type C = CustomerPaths;
type U = UserPaths;
type Options = RequestOptions | undefined;

describe('every method of Cardrail', () => {
  it('agents', () => {
    expectTypeOf(cardrail.agents.create).toEqualTypeOf<
      (body: Body<Op<C, '/agents', 'post'>>, options?: Options) => APIPromise<Out<Op<C, '/agents', 'post'>>>
    >();
    expectTypeOf(cardrail.agents.retrieve).toEqualTypeOf<
      (agentId: string, options?: Options) => APIPromise<Out<Op<C, '/agents/{agentId}', 'get'>>>
    >();
    expectTypeOf(cardrail.agents.update).toEqualTypeOf<
      (
        agentId: string,
        body: Body<Op<C, '/agents/{agentId}', 'patch'>>,
        options?: Options,
      ) => APIPromise<Out<Op<C, '/agents/{agentId}', 'patch'>>>
    >();
    expectTypeOf(cardrail.agents.list).toEqualTypeOf<
      (query?: Query<Op<C, '/agents', 'get'>>, options?: Options) => PagePromise<Item<Op<C, '/agents', 'get'>>>
    >();
    expectTypeOf(cardrail.agents.delete).toEqualTypeOf<
      (agentId: string, options?: Options) => APIPromise<Out<Op<C, '/agents/{agentId}', 'delete'>>>
    >();
    expectTypeOf(cardrail.agents.suspend).toEqualTypeOf<
      (agentId: string, options?: Options) => APIPromise<Out<Op<C, '/agents/{agentId}/suspend', 'post'>>>
    >();
    expectTypeOf(cardrail.agents.activate).toEqualTypeOf<
      (agentId: string, options?: Options) => APIPromise<Out<Op<C, '/agents/{agentId}/activate', 'post'>>>
    >();
  });

  it('cards', () => {
    expectTypeOf(cardrail.cards.create).toEqualTypeOf<
      (body: Body<Op<C, '/cards', 'post'>>, options?: Options) => APIPromise<Out<Op<C, '/cards', 'post'>>>
    >();
    expectTypeOf(cardrail.cards.retrieve).toEqualTypeOf<
      (cardId: string, options?: Options) => APIPromise<Out<Op<C, '/cards/{cardId}', 'get'>>>
    >();
    expectTypeOf(cardrail.cards.update).toEqualTypeOf<
      (
        cardId: string,
        body: Body<Op<C, '/cards/{cardId}', 'patch'>>,
        options?: Options,
      ) => APIPromise<Out<Op<C, '/cards/{cardId}', 'patch'>>>
    >();
    expectTypeOf(cardrail.cards.list).toEqualTypeOf<
      (query?: Query<Op<C, '/cards', 'get'>>, options?: Options) => PagePromise<Item<Op<C, '/cards', 'get'>>>
    >();
    expectTypeOf(cardrail.cards.freeze).toEqualTypeOf<
      (cardId: string, options?: Options) => APIPromise<Out<Op<C, '/cards/{cardId}/freeze', 'post'>>>
    >();
    expectTypeOf(cardrail.cards.close).toEqualTypeOf<
      (cardId: string, options?: Options) => APIPromise<Out<Op<C, '/cards/{cardId}/close', 'post'>>>
    >();
    expectTypeOf(cardrail.cards.policy).toEqualTypeOf<
      (cardId: string, options?: Options) => APIPromise<Out<Op<C, '/cards/{cardId}/policy', 'get'>>>
    >();
    // The spec makes the credentials body optional.
    expectTypeOf(cardrail.cards.credentials).toEqualTypeOf<
      (
        cardId: string,
        body?: Body<Op<C, '/cards/{cardId}/credentials', 'post'>>,
        options?: Options,
      ) => APIPromise<Out<Op<C, '/cards/{cardId}/credentials', 'post'>>>
    >();
  });

  it('intents, transactions and spend', () => {
    expectTypeOf(cardrail.intents.create).toEqualTypeOf<
      (body: Body<Op<C, '/intents', 'post'>>, options?: Options) => APIPromise<Out<Op<C, '/intents', 'post'>>>
    >();
    expectTypeOf(cardrail.intents.retrieve).toEqualTypeOf<
      (intentId: string, options?: Options) => APIPromise<Out<Op<C, '/intents/{intentId}', 'get'>>>
    >();
    expectTypeOf(cardrail.intents.list).toEqualTypeOf<
      (query?: Query<Op<C, '/intents', 'get'>>, options?: Options) => PagePromise<Item<Op<C, '/intents', 'get'>>>
    >();
    expectTypeOf(cardrail.intents.approve).toEqualTypeOf<
      (intentId: string, options?: Options) => APIPromise<Out<Op<C, '/intents/{intentId}/approve', 'post'>>>
    >();
    expectTypeOf(cardrail.intents.reject).toEqualTypeOf<
      (
        intentId: string,
        body?: Body<Op<C, '/intents/{intentId}/reject', 'post'>>,
        options?: Options,
      ) => APIPromise<Out<Op<C, '/intents/{intentId}/reject', 'post'>>>
    >();
    // Not an operation: reads the intent until it is decided, with the same result type as retrieve.
    expectTypeOf(cardrail.intents.waitForDecision).toEqualTypeOf<
      (intentId: string, options?: WaitForDecisionOptions) => Promise<Out<Op<C, '/intents/{intentId}', 'get'>>>
    >();
    expectTypeOf(users.intents.waitForDecision).returns.resolves.toHaveProperty('approvalUrl');
    expectTypeOf(cardrail.transactions.retrieve).toEqualTypeOf<
      (transactionId: string, options?: Options) => APIPromise<Out<Op<C, '/transactions/{transactionId}', 'get'>>>
    >();
    expectTypeOf(cardrail.transactions.list).toEqualTypeOf<
      (query?: Query<Op<C, '/transactions', 'get'>>, options?: Options) => PagePromise<Item<Op<C, '/transactions', 'get'>>>
    >();
    expectTypeOf(cardrail.spend.evaluate).toEqualTypeOf<
      (body: Body<Op<C, '/spend/evaluate', 'post'>>, options?: Options) => APIPromise<Out<Op<C, '/spend/evaluate', 'post'>>>
    >();
  });

  it('settings, webhooks, events and API keys', () => {
    expectTypeOf(cardrail.settings.risk.retrieve).toEqualTypeOf<
      (options?: Options) => APIPromise<Out<Op<C, '/settings/risk', 'get'>>>
    >();
    expectTypeOf(cardrail.settings.risk.update).toEqualTypeOf<
      (body: Body<Op<C, '/settings/risk', 'patch'>>, options?: Options) => APIPromise<Out<Op<C, '/settings/risk', 'patch'>>>
    >();
    expectTypeOf(cardrail.webhooks.create).toEqualTypeOf<
      (body: Body<Op<C, '/webhooks', 'post'>>, options?: Options) => APIPromise<Out<Op<C, '/webhooks', 'post'>>>
    >();
    expectTypeOf(cardrail.webhooks.retrieve).toEqualTypeOf<
      (webhookId: string, options?: Options) => APIPromise<Out<Op<C, '/webhooks/{webhookId}', 'get'>>>
    >();
    expectTypeOf(cardrail.webhooks.update).toEqualTypeOf<
      (
        webhookId: string,
        body: Body<Op<C, '/webhooks/{webhookId}', 'patch'>>,
        options?: Options,
      ) => APIPromise<Out<Op<C, '/webhooks/{webhookId}', 'patch'>>>
    >();
    expectTypeOf(cardrail.webhooks.list).toEqualTypeOf<
      (query?: Query<Op<C, '/webhooks', 'get'>>, options?: Options) => PagePromise<Item<Op<C, '/webhooks', 'get'>>>
    >();
    expectTypeOf(cardrail.webhooks.delete).toEqualTypeOf<
      (webhookId: string, options?: Options) => APIPromise<Out<Op<C, '/webhooks/{webhookId}', 'delete'>>>
    >();
    expectTypeOf(cardrail.webhooks.rotateSecret).toEqualTypeOf<
      (webhookId: string, options?: Options) => APIPromise<Out<Op<C, '/webhooks/{webhookId}/rotate-secret', 'post'>>>
    >();
    expectTypeOf(cardrail.webhooks.resend).toEqualTypeOf<
      (
        webhookId: string,
        eventId: string,
        options?: Options,
      ) => APIPromise<Out<Op<C, '/webhooks/{webhookId}/events/{eventId}/resend', 'post'>>>
    >();
    expectTypeOf(cardrail.webhooks.deliveries.list).toEqualTypeOf<
      (
        webhookId: string,
        query?: Query<Op<C, '/webhooks/{webhookId}/deliveries', 'get'>>,
        options?: Options,
      ) => PagePromise<Item<Op<C, '/webhooks/{webhookId}/deliveries', 'get'>>>
    >();
    expectTypeOf(cardrail.webhooks.deliveries.retry).toEqualTypeOf<
      (
        webhookId: string,
        deliveryId: string,
        options?: Options,
      ) => APIPromise<Out<Op<C, '/webhooks/{webhookId}/deliveries/{deliveryId}/retry', 'post'>>>
    >();
    // Stored events are typed as delivered ones, not as the spec's open event schema.
    expectTypeOf(cardrail.events.retrieve).toEqualTypeOf<(eventId: string, options?: Options) => APIPromise<CustomerEvent>>();
    expectTypeOf(cardrail.events.list).toEqualTypeOf<
      (query?: Query<Op<C, '/events', 'get'>>, options?: Options) => PagePromise<CustomerEvent>
    >();
    expectTypeOf(cardrail.apiKeys.create).toEqualTypeOf<
      (body?: Body<Op<C, '/api-keys', 'post'>>, options?: Options) => APIPromise<Out<Op<C, '/api-keys', 'post'>>>
    >();
    expectTypeOf(cardrail.apiKeys.list).toEqualTypeOf<
      (query?: Query<Op<C, '/api-keys', 'get'>>, options?: Options) => PagePromise<Item<Op<C, '/api-keys', 'get'>>>
    >();
    expectTypeOf(cardrail.apiKeys.revoke).toEqualTypeOf<
      (keyId: string, options?: Options) => APIPromise<Out<Op<C, '/api-keys/{keyId}', 'delete'>>>
    >();
  });

  it('customers and withdrawals, under the customer routes', () => {
    expectTypeOf(cardrail.customers.create).toEqualTypeOf<
      (body: Body<Op<C, '/customers', 'post'>>, options?: Options) => APIPromise<Out<Op<C, '/customers', 'post'>>>
    >();
    expectTypeOf(cardrail.customers.retrieve).toEqualTypeOf<
      (ownerId: string, options?: Options) => APIPromise<Out<Op<C, '/customers/{customerId}', 'get'>>>
    >();
    expectTypeOf(cardrail.customers.update).toEqualTypeOf<
      (
        ownerId: string,
        body: Body<Op<C, '/customers/{customerId}', 'patch'>>,
        options?: Options,
      ) => APIPromise<Out<Op<C, '/customers/{customerId}', 'patch'>>>
    >();
    expectTypeOf(cardrail.customers.list).toEqualTypeOf<
      (query?: Query<Op<C, '/customers', 'get'>>, options?: Options) => PagePromise<Item<Op<C, '/customers', 'get'>>>
    >();
    expectTypeOf(cardrail.customers.delete).toEqualTypeOf<
      (ownerId: string, options?: Options) => APIPromise<Out<Op<C, '/customers/{customerId}', 'delete'>>>
    >();
    expectTypeOf(cardrail.customers.balances).toEqualTypeOf<
      (ownerId: string, options?: Options) => APIPromise<Out<Op<C, '/customers/{customerId}/balances', 'get'>>>
    >();
    expectTypeOf(cardrail.withdrawals.create).toEqualTypeOf<
      (
        ownerId: string,
        body: Body<Op<C, '/customers/{customerId}/withdrawals', 'post'>>,
        options?: Options,
      ) => APIPromise<Out<Op<C, '/customers/{customerId}/withdrawals', 'post'>>>
    >();
    expectTypeOf(cardrail.withdrawals.retrieve).toEqualTypeOf<
      (withdrawalId: string, options?: Options) => APIPromise<Out<Op<C, '/withdrawals/{withdrawalId}', 'get'>>>
    >();
  });

  it('simulate', () => {
    expectTypeOf(cardrail.simulate.authorize).toEqualTypeOf<
      (
        body: Body<Op<C, '/simulate/authorize', 'post'>>,
        options?: Options,
      ) => APIPromise<Out<Op<C, '/simulate/authorize', 'post'>>>
    >();
    type Settle = Op<C, '/simulate/transactions/{transactionId}/settle', 'post'>;
    expectTypeOf(cardrail.simulate.settle).toEqualTypeOf<
      (transactionId: string, body?: Body<Settle>, options?: Options) => APIPromise<Out<Settle>>
    >();
    type Reverse = Op<C, '/simulate/transactions/{transactionId}/reverse', 'post'>;
    expectTypeOf(cardrail.simulate.reverse).toEqualTypeOf<
      (transactionId: string, body?: Body<Reverse>, options?: Options) => APIPromise<Out<Reverse>>
    >();
    type Dispute = Op<C, '/simulate/transactions/{transactionId}/dispute', 'post'>;
    expectTypeOf(cardrail.simulate.dispute).toEqualTypeOf<
      (transactionId: string, body?: Body<Dispute>, options?: Options) => APIPromise<Out<Dispute>>
    >();
    type Resolve = Op<C, '/simulate/disputes/{disputeId}/resolve', 'post'>;
    expectTypeOf(cardrail.simulate.resolveDispute).toEqualTypeOf<
      (disputeId: string, body: Body<Resolve>, options?: Options) => APIPromise<Out<Resolve>>
    >();
    expectTypeOf(cardrail.simulate.deposit).toEqualTypeOf<
      (body: Body<Op<C, '/simulate/deposits', 'post'>>, options?: Options) => APIPromise<Out<Op<C, '/simulate/deposits', 'post'>>>
    >();
    expectTypeOf(cardrail.simulate.confirmWithdrawal).toEqualTypeOf<
      (withdrawalId: string, options?: Options) => APIPromise<Out<Op<C, '/simulate/withdrawals/{withdrawalId}/confirm', 'post'>>>
    >();
    expectTypeOf(cardrail.simulate.failWithdrawal).toEqualTypeOf<
      (withdrawalId: string, options?: Options) => APIPromise<Out<Op<C, '/simulate/withdrawals/{withdrawalId}/fail', 'post'>>>
    >();
    expectTypeOf(cardrail.simulate.kyc).toEqualTypeOf<
      (body: Body<Op<C, '/simulate/kyc', 'post'>>, options?: Options) => APIPromise<Out<Op<C, '/simulate/kyc', 'post'>>>
    >();
    expectTypeOf(cardrail.simulate.clock.retrieve).toEqualTypeOf<
      (options?: Options) => APIPromise<Out<Op<C, '/simulate/clock', 'get'>>>
    >();
    expectTypeOf(cardrail.simulate.clock.advance).toEqualTypeOf<
      (
        body: Body<Op<C, '/simulate/clock/advance', 'post'>>,
        options?: Options,
      ) => APIPromise<Out<Op<C, '/simulate/clock/advance', 'post'>>>
    >();
  });
});

describe('CardrailUsers', () => {
  it('takes its owner routes, cards and events from the user variant', () => {
    expectTypeOf(users.users.create).toEqualTypeOf<
      (body: Body<Op<U, '/users', 'post'>>, options?: Options) => APIPromise<Out<Op<U, '/users', 'post'>>>
    >();
    expectTypeOf(users.users.retrieve).toEqualTypeOf<
      (ownerId: string, options?: Options) => APIPromise<Out<Op<U, '/users/{userId}', 'get'>>>
    >();
    expectTypeOf(users.users.update).toEqualTypeOf<
      (
        ownerId: string,
        body: Body<Op<U, '/users/{userId}', 'patch'>>,
        options?: Options,
      ) => APIPromise<Out<Op<U, '/users/{userId}', 'patch'>>>
    >();
    expectTypeOf(users.users.list).toEqualTypeOf<
      (query?: Query<Op<U, '/users', 'get'>>, options?: Options) => PagePromise<Item<Op<U, '/users', 'get'>>>
    >();
    expectTypeOf(users.users.delete).toEqualTypeOf<
      (ownerId: string, options?: Options) => APIPromise<Out<Op<U, '/users/{userId}', 'delete'>>>
    >();
    expectTypeOf(users.users.balances).toEqualTypeOf<
      (ownerId: string, options?: Options) => APIPromise<Out<Op<U, '/users/{userId}/balances', 'get'>>>
    >();
    expectTypeOf(users.withdrawals.create).toEqualTypeOf<
      (
        ownerId: string,
        body: Body<Op<U, '/users/{userId}/withdrawals', 'post'>>,
        options?: Options,
      ) => APIPromise<Out<Op<U, '/users/{userId}/withdrawals', 'post'>>>
    >();
    expectTypeOf(users.cards.create).toEqualTypeOf<
      (body: Body<Op<U, '/cards', 'post'>>, options?: Options) => APIPromise<Out<Op<U, '/cards', 'post'>>>
    >();
    expectTypeOf(users.cards.list).toEqualTypeOf<
      (query?: Query<Op<U, '/cards', 'get'>>, options?: Options) => PagePromise<Item<Op<U, '/cards', 'get'>>>
    >();
    expectTypeOf(users.events.retrieve).toEqualTypeOf<(eventId: string, options?: Options) => APIPromise<UserEvent>>();
    expectTypeOf(users.events.list).toEqualTypeOf<
      (query?: Query<Op<U, '/events', 'get'>>, options?: Options) => PagePromise<UserEvent>
    >();
  });
});
