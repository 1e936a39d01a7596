// The seams are typed from the spec: each `@ts-expect-error` below is a mistake the compiler must refuse (tsc fails
// on an unused directive, so each line proves its error). Run by `npm run typecheck` and vitest's typecheck.
import { describe, expectTypeOf, it } from 'vitest';
import type { Tenant } from '../src/core/tenant.js';
import type { Cardrail, CardrailUsers } from '@cardrail/sdk';
import { createMockServer, type HandlerMap } from '../src/index.js';
import type { NeutralHandlers } from '../src/operations/neutral.js';
import type { VariantCodec } from '../src/variants/codec.js';
import { customerCodec } from '../src/variants/customer.js';
import { userCodec } from '../src/variants/user.js';

declare const tenant: Tenant;

describe('the handler map is keyed and typed by operationId', () => {
  it('refuses a misspelt operationId', () => {
    const overrides: HandlerMap = {
      // @ts-expect-error `getCardz` is no operationId of either variant
      getCardz: () => ({ body: {} }),
    };
    expectTypeOf(overrides).toEqualTypeOf<HandlerMap>();
  });

  it('types ctx.body, ctx.params and ctx.query from the operation', () => {
    const overrides: HandlerMap = {
      createCustomer: (ctx) => {
        expectTypeOf(ctx.body.email).toEqualTypeOf<string>();
        // @ts-expect-error the body field is `email`
        void ctx.body.emial;
        throw new Error('not called');
      },
      getCard: (ctx) => {
        expectTypeOf(ctx.params.cardId).toEqualTypeOf<string>();
        // @ts-expect-error getCard's path parameter is `cardId`
        void ctx.params.id;
        throw new Error('not called');
      },
      listTransactions: (ctx) => {
        expectTypeOf(ctx.query.limit).toEqualTypeOf<number | undefined>();
        // @ts-expect-error listTransactions has no `sort` parameter
        void ctx.query.sort;
        throw new Error('not called');
      },
    };
    expectTypeOf(overrides).toEqualTypeOf<HandlerMap>();
  });

  it('refuses a returned body that the spec does not document', () => {
    const overrides: HandlerMap = {
      // @ts-expect-error a card answer needs the documented fields, not an `id` number
      getCard: () => ({ body: { id: 1 } }),
    };
    expectTypeOf(overrides).toEqualTypeOf<HandlerMap>();
  });

  it('types the neutral handlers by operationId, input and all', () => {
    const partial: Partial<NeutralHandlers> = {
      // @ts-expect-error the neutral operations are the spec's operationIds
      getCardz: () => undefined,
      // @ts-expect-error the customer body has `email`, not `emial`
      createCustomer: (ctx) => ctx.body.emial,
    };
    expectTypeOf(partial).toEqualTypeOf<Partial<NeutralHandlers>>();
  });
});

describe('events are typed by their type', () => {
  it("refuses data that is not the event type's schema", () => {
    tenant.emit('card.frozen', { cardId: 'card_1', agentId: null, reason: 'manual', frozenBy: 'api' });
    // @ts-expect-error `card.frozen` data has `reason`, not `reasn`
    tenant.emit('card.frozen', { cardId: 'card_1', agentId: null, reasn: 'manual', frozenBy: 'api' });
    // @ts-expect-error a reason outside the spec's enumeration
    tenant.emit('card.frozen', { cardId: 'card_1', agentId: null, reason: 'bored', frozenBy: 'api' });
    // @ts-expect-error `transaction.created` is the customer variant's name; events are stored by catalog type
    tenant.emit('transaction.created', {});
  });
});

describe('each variant renders what the spec documents', () => {
  it('refuses an encoder whose answer is not the documented response', () => {
    const broken = {
      ...customerCodec,
      operations: {
        ...customerCodec.operations,
        // @ts-expect-error getTransaction answers a Transaction, not an `{ id }` number
        getTransaction: { encode: () => ({ id: 1 }) },
      },
    } satisfies VariantCodec<'customer'>;
    expectTypeOf(broken.variant).toEqualTypeOf<'customer'>();
  });

  it('requires a decoder where the wire input carries a field the neutral input does not have', () => {
    const { updateCard: _decodedHere, ...operations } = userCodec.operations;
    const broken = {
      ...userCodec,
      operations: {
        ...operations,
        // @ts-expect-error the user card's `limits` would be dropped: updateCard must decode them into the policy
        updateCard: { encode: userCodec.operations.updateCard.encode },
      },
    } satisfies VariantCodec<'user', typeof userCodec.aliases>;
    expectTypeOf(broken.variant).toEqualTypeOf<'user'>();
  });
});

describe('the test kit is typed by the client’s variant', () => {
  it('gives the client of the variant asked for, and events in its names', async () => {
    const mock = createMockServer();
    expectTypeOf(mock.client()).toEqualTypeOf<Cardrail>();
    expectTypeOf(mock.client({ variant: 'user' })).toEqualTypeOf<CardrailUsers>();
    const inbox = await mock.webhookInbox({ client: mock.client() });
    const created = await inbox.waitFor('transaction.created');
    expectTypeOf(created.data.merchant.name).toEqualTypeOf<string>();
    // @ts-expect-error a customer-variant inbox receives `transaction.created`, not the catalog's name
    void inbox.waitFor('transaction.authorized');
    const userInbox = await mock.webhookInbox({ client: mock.client({ variant: 'user' }), events: ['transaction.authorized'] });
    expectTypeOf((await userInbox.waitFor('transaction.authorized')).createdAt).toEqualTypeOf<number>();
    // @ts-expect-error the user variant calls it `transaction.authorized`
    void mock.webhookInbox({ client: mock.client({ variant: 'user' }), events: ['transaction.created'] });
  });
});
