import { AuthenticationError, BadRequestError, NotFoundError, RateLimitError } from '@cardrail/sdk';
import { beforeAll, describe, expect, it } from 'vitest';
import type { PrismProcess } from '../src/prism.js';
import { ContractRecorder } from '../src/recorder.js';
import { clientFor, createAgentFor, newTestKey, type VariantClient } from '../src/scenario/context.js';
import { loadSpecs, VARIANTS, type OperationInfo } from '../src/spec.js';
import { WebhookReceiver } from '../src/webhook-receiver.js';
import { prismMock, useContractChecks, type Harness } from './support/harness.js';

/**
 * The SDK against `prism mock` of each document, a server built from the spec alone (static examples).
 * Every operation is called through the SDK (its raw client for the sweep, its namespaces for the typed flows), and
 * the error classes are checked against the spec's own error examples (`Prefer: code=...`).
 */
const specs = loadSpecs();
const recorder = new ContractRecorder({ suite: 'sdk-prism-mock', basePath: '' });
const prisms: Partial<Record<'customer' | 'user', PrismProcess>> = {};
const harness: Harness = {
  name: 'sdk-prism-mock',
  recorder,
  receiver: new WebhookReceiver(recorder),
  baseUrl: (variant) => (prisms[variant] as PrismProcess).url,
  // Prism sends no webhooks: nothing to wait for.
  idle: async () => {},
  stop: async () => {
    await Promise.all(Object.values(prisms).map((p) => p.stop()));
  },
};
beforeAll(async () => {
  const [customer, user] = await Promise.all(VARIANTS.map((variant) => prismMock(variant)));
  prisms.customer = customer;
  prisms.user = user;
});
useContractChecks(() => harness);

/** openapi-fetch's `request()` seen without per-path types, for a sweep driven by the spec's own operation list. */
interface UntypedRaw {
  request(
    method: string,
    path: string,
    init: Record<string, unknown>,
  ): Promise<{ response: Response; data?: unknown; error?: unknown }>;
}

function exampleCall(op: OperationInfo): Record<string, unknown> {
  const path = Object.fromEntries(op.pathParams.map((p) => [p.name, String(p.example ?? 'x_1')]));
  const init: Record<string, unknown> = { params: { path } };
  if (op.requestBody) init.body = op.requestBody.example;
  return init;
}

for (const variant of VARIANTS) {
  describe(`SDK against prism mock, ${variant} variant`, () => {
    let vc: VariantClient;
    beforeAll(() => {
      vc = clientFor(variant, { apiKey: newTestKey(), baseUrl: harness.baseUrl(variant), fetch: recorder.fetch });
    });

    it.each(specs[variant].operations.map((op) => [`${op.operationId} (${op.method.toUpperCase()} ${op.path})`, op] as const))(
      'raw client: %s answers a documented 2xx for the spec example',
      async (_name, op) => {
        const raw = vc.client.raw as unknown as UntypedRaw;
        const { response } = await raw.request(op.method, op.path, exampleCall(op));
        expect(response.status).toBeGreaterThanOrEqual(200);
        expect(response.status).toBeLessThan(300);
      },
    );

    it('namespaces: agents, cards, intents, spend, risk, webhooks, clock parse into typed data', async () => {
      const client = vc.client;
      const agent = await createAgentFor(vc, 'cus_3kT9xQ2mPz', { name: 'Procurement bot' });
      expect(agent.id).toMatch(/^agt_/);
      expect((await client.cards.freeze('card_9HbV3nK2qR')).id).toMatch(/^card_/);
      expect((await client.cards.policy('card_9HbV3nK2qR')).cardId).toMatch(/^card_/);
      expect((await client.intents.approve('int_4QwE8rT1yU')).id).toMatch(/^int_/);
      expect((await client.spend.evaluate({ cardId: 'card_9HbV3nK2qR', amount: 2_500 })).decision).toBeTypeOf('string');
      expect((await client.settings.risk.update({ dryRun: true })).object).toBe('riskConfig');
      expect((await client.webhooks.create({ url: 'https://agents.example.com/hooks', events: ['card.frozen'] })).secret).toMatch(
        /^whsec_/,
      );
      expect((await client.simulate.clock.advance({ seconds: 60 })).now).toBeTypeOf('string');
    });

    it('namespaces: a list is a page and iterates its items', async () => {
      const page = await vc.client.agents.list({ limit: 20 });
      expect(Array.isArray(page.data)).toBe(true);
      const items = [];
      for await (const agent of vc.client.agents.list({ limit: 20 })) items.push(agent);
      expect(items).toEqual(page.data);
    });

    it('the owner resource of the variant works (customers or users)', async () => {
      const created =
        vc.variant === 'customer'
          ? await vc.client.customers.create({ type: 'consumer', email: 'ada@example.com' })
          : await vc.client.users.create({ type: 'consumer', email: 'ada@example.com' });
      expect(created.id).toMatch(/^cus_/);
    });

    it('error examples of the spec become the SDK error classes with their codes', async () => {
      const cases = [
        { code: 400, type: BadRequestError, errorCode: 'invalid_request' },
        { code: 401, type: AuthenticationError, errorCode: 'unauthorized' },
        { code: 404, type: NotFoundError, errorCode: 'not_found' },
        { code: 429, type: RateLimitError, errorCode: 'rate_limited' },
      ];
      for (const { code, type, errorCode } of cases) {
        const error = await vc.client.cards.retrieve('card_9HbV3nK2qR', { headers: { Prefer: `code=${code}` } }).then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(error).toBeInstanceOf(type);
        expect((error as { code: string }).code).toBe(errorCode);
      }
      // Prism's mock flags its own 429: it sends `RateLimit-Remaining: 0` (the spec's example) and then reports the
      // header missing, as it treats the value 0 as absent. The header is there; the recorder checked it too.
      const prismZeroHeaderQuirk = (v: { check: string; message: string }): boolean => {
        if (v.check !== 'prism_violation') return false;
        const reported = JSON.parse(v.message) as Array<{ code: string; message: string }>;
        return reported.every((r) => r.code === 'required' && /'ratelimit-remaining'/.test(r.message));
      };
      expect(recorder.takeNewViolations().filter((v) => !prismZeroHeaderQuirk(v))).toEqual([]);
    });
  });
}
