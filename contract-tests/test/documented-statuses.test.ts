import { createMockServer, type MockServer } from '@cardrail/mock-server';
import { startMockServer } from '@cardrail/mock-server/node';
import { RateLimitError } from '@cardrail/sdk';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { badRequestProbes, exampleBody, notFoundProbe, type ErrorProbe } from '../src/error-probes.js';
import { fillPath } from '../src/fuzz.js';
import { ContractRecorder } from '../src/recorder.js';
import { authHeaders } from '../src/request-builder.js';
import { snapshotOrganization } from '../src/state-snapshot.js';
import { clientFor, newTestKey, type ScenarioContext } from '../src/scenario/context.js';
import { loadSpecs, VARIANTS, type OperationInfo, type Variant } from '../src/spec.js';
import { WebhookReceiver } from '../src/webhook-receiver.js';
import { useContractChecks, type Harness } from './support/harness.js';
import { newSeededOrganization, unlistedObjects, type SeededIds } from './support/seed.js';

/**
 * The documented error statuses the scenario and the checks do not reach on their own: 429 on every operation (a
 * mock limited to one request per minute and key), 400, 404 and 413 on every operation that documents them. Each answer
 * passes the recorder (status documented, error schema, Request-Id, and on 429 Retry-After and RateLimit-*), and
 * each test also states the code the spec's error format must carry. 500, 502 and 503 a correct mock answers only as
 * faults a test injects (mock.faults): each operation gets each of them once that way, checked like any answer.
 */
const BASE = 'http://mock.invalid/v1';
const specs = loadSpecs();
/**
 * One request per minute and key: a key's second request of the minute is refused. The clock is frozen so that the
 * state snapshots (which read the test clock) compare byte for byte and no key's minute runs out mid-test.
 */
const mock: MockServer = createMockServer({ rateLimit: 1, frozenClock: '2026-11-21T12:00:00.000Z' });
// Seeding, key creation, snapshots and the 400 and 404 probes go through `preload`: same answers, no limit.
const recorder = new ContractRecorder({ suite: 'documented-statuses', baseFetch: (request) => mock.preload(request) });
// The rate-limited traffic, recorded apart so that its coverage is its own row of coverage.md.
const limited = new ContractRecorder({ suite: 'documented-statuses-429', baseFetch: (request) => mock.handle(request) });
const harness: Harness = {
  name: 'documented-statuses',
  recorder,
  receiver: new WebhookReceiver(recorder),
  baseUrl: () => BASE,
  idle: () => mock.idle(),
  stop: async () => mock.reset(),
};
useContractChecks(() => harness);
afterAll(() => limited.writeCoverage(inject('coverageDir')));

const allOps = VARIANTS.flatMap((variant) => specs[variant].operations);
const label = (op: OperationInfo) => `${op.variant} ${op.operationId} (${op.method.toUpperCase()} ${op.path})`;

interface Org {
  apiKey: string;
  /** A live key of the same organization: test helpers must refuse it without touching the test mode's state. */
  liveKey: string;
  ids: SeededIds;
  ctx: ScenarioContext;
  snapshot(): Promise<string>;
}
const orgs = new Map<Variant, Org>();

beforeAll(async () => {
  for (const variant of VARIANTS) {
    const { apiKey, ctx, ids, failures } = await newSeededOrganization(harness, variant);
    expect(failures).toEqual([]);
    const snapshot = () =>
      snapshotOrganization(
        (request) => mock.preload(request),
        BASE,
        authHeaders(variant, apiKey),
        specs[variant],
        unlistedObjects(ids),
      );
    const { key: liveKey } = await ctx.vc.client.apiKeys.create({ name: 'live', mode: 'live' });
    orgs.set(variant, { apiKey, liveKey, ids, ctx, snapshot });
  }
  await mock.idle();
}, 60_000);

function org(variant: Variant): Org {
  const found = orgs.get(variant);
  if (!found) throw new Error(`no seeded ${variant} organization`);
  return found;
}

/** Sends a probe through `via` and returns what the assertions compare: status and the error's code and field. */
async function answer(
  via: ContractRecorder,
  probe: ErrorProbe,
): Promise<{ fault: string; status: number; code: unknown; field?: unknown }> {
  const from = via.exchanges.length;
  const response = await via.fetch(probe.request);
  const body = (await response.json()) as { error: string | { code: string; details?: { field?: string } | null } };
  const code = typeof body.error === 'string' ? body.error : body.error.code;
  const field = typeof body.error === 'string' ? undefined : body.error.details?.field;
  expect(via.exchanges[from]?.violations ?? ['not recorded']).toEqual([]);
  return { fault: probe.fault, status: response.status, code, ...(probe.field ? { field } : {}) };
}

describe('429 on every operation: Retry-After, RateLimit-* and the error body as the spec documents them', () => {
  it.each(allOps.map((op) => [label(op), op] as const))('%s', async (_name, op) => {
    const { vc, variant } = org(op.variant).ctx;
    // A key of its own in the seeded organization, so the operation meets real ids and the minute is fresh.
    const { key } = await vc.client.apiKeys.create({ name: `limited ${op.operationId}` });
    const auth = authHeaders(variant, key);
    const spent = await limited.fetch(new Request(`${BASE}/events?limit=1`, { headers: auth }));
    expect(spent.status).toBe(200);
    const before = await org(variant).snapshot();

    const { ids } = org(variant);
    const path = fillPath(
      op.path,
      Object.fromEntries(op.pathParams.map((p) => [p.name, ids.get(p.name) ?? `${p.name}_missing`])),
    );
    const body = exampleBody(op);
    const response = await limited.fetch(
      new Request(`${BASE}${path}`, {
        method: op.method.toUpperCase(),
        headers: { ...auth, ...(body ? { 'content-type': 'application/json' } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
      }),
    );
    const exchange = limited.exchanges.at(-1);
    expect(exchange?.violations).toEqual([]);
    expect({
      status: response.status,
      body: await response.json(),
      limit: response.headers.get('RateLimit-Limit'),
      remaining: response.headers.get('RateLimit-Remaining'),
      retryAfter: Number(response.headers.get('Retry-After')),
      reset: Number(response.headers.get('RateLimit-Reset')),
    }).toEqual({
      status: 429,
      body: { error: expect.objectContaining({ code: 'rate_limited', message: expect.any(String) }) },
      limit: '1',
      remaining: '0',
      retryAfter: expect.toSatisfy((s: number) => Number.isInteger(s) && s >= 0 && s <= 60, 'whole seconds within the minute'),
      reset: expect.toSatisfy((s: number) => Number.isInteger(s) && s >= 0 && s <= 60, 'whole seconds within the minute'),
    });
    expect(await org(variant).snapshot(), 'a refused request changes nothing').toBe(before);
  });

  it('the SDK surfaces a 429 as RateLimitError with the code and Retry-After', async () => {
    const { vc } = org('customer').ctx;
    const { key } = await vc.client.apiKeys.create({ name: 'limited sdk' });
    const client = clientFor('customer', { apiKey: key, baseUrl: BASE, fetch: limited.fetch }).client;
    await client.agents.list({ limit: 1 });
    const error = await client.agents.list({ limit: 1 }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(RateLimitError);
    expect({
      status: (error as RateLimitError).status,
      code: (error as RateLimitError).code,
      retryAfter: (error as RateLimitError).headers?.get('Retry-After'),
    }).toEqual({
      status: 429,
      code: 'rate_limited',
      retryAfter: expect.stringMatching(/^[1-9][0-9]*$/),
    });
  });

  it('over HTTP too: the Node server limited to 1 request a minute answers every operation 429 within the spec', async () => {
    const running = await startMockServer({ port: 0, rateLimit: 1, frozenClock: '2026-11-21T12:00:00.000Z' });
    const overHttp = new ContractRecorder({ suite: 'documented-statuses-429-node' });
    try {
      const statuses: string[] = [];
      for (const op of allOps) {
        // A new key is a new organization: its ids are unknown, but the limit answers before any lookup.
        const auth = authHeaders(op.variant, newTestKey());
        await overHttp.fetch(new Request(`${running.url}/events?limit=1`, { headers: auth }));
        const path = fillPath(op.path, Object.fromEntries(op.pathParams.map((p) => [p.name, `${p.name}_x`])));
        const body = exampleBody(op);
        const response = await overHttp.fetch(
          new Request(`${running.url}${path}`, {
            method: op.method.toUpperCase(),
            headers: { ...auth, ...(body ? { 'content-type': 'application/json' } : {}) },
            ...(body ? { body: JSON.stringify(body) } : {}),
          }),
        );
        statuses.push(`${label(op)} ${response.status}`);
      }
      expect(statuses).toEqual(allOps.map((op) => `${label(op)} 429`));
      expect(overHttp.violations).toEqual([]);
      overHttp.writeCoverage(inject('coverageDir'));
    } finally {
      await running.close();
    }
  });

  it('the resend bound: the 11th resend of one event to one webhook in a minute is 429 within the spec, with Retry-After', async () => {
    for (const variant of VARIANTS) {
      const { ctx, ids, apiKey } = org(variant);
      // A webhook of its own (disabled: nothing is sent), so that no other test meets the bound.
      const hook = await ctx.vc.client.webhooks.create({ url: 'https://hooks.example.com/bound', events: ['*'] });
      await ctx.vc.client.webhooks.update(hook.id, { status: 'disabled' });
      const resend = () =>
        recorder.fetch(
          new Request(`${BASE}/webhooks/${hook.id}/events/${ids.get('eventId')}/resend`, {
            method: 'POST',
            headers: authHeaders(variant, apiKey),
          }),
        );
      const statuses: number[] = [];
      for (let i = 0; i < 10; i++) statuses.push((await resend()).status);
      expect(statuses).toEqual(Array(10).fill(201));
      const before = await org(variant).snapshot();
      const refused = await resend();
      expect(recorder.exchanges.at(-1)?.violations).toEqual([]);
      expect({
        status: refused.status,
        code: ((await refused.json()) as { error: { code: string } }).error.code,
        retryAfter: refused.headers.get('Retry-After'),
        limit: refused.headers.get('RateLimit-Limit'),
      }).toEqual({ status: 429, code: 'rate_limited', retryAfter: '60', limit: null });
      expect(await org(variant).snapshot(), 'a refused resend changes nothing').toBe(before);
    }
  });

  it('the limited mock answered every 429 within the spec', () => {
    expect(limited.violations).toEqual([]);
    expect(
      new Set(limited.exchanges.filter((e) => e.status === 429).map((e) => `${e.variant} ${e.operation?.operationId}`)).size,
    ).toBe(allOps.length);
  });
});

describe('429, 500, 502 and 503 on every operation, as faults a test injects: the error format and headers as documented', () => {
  const faulted = new ContractRecorder({ suite: 'documented-statuses-5xx', baseFetch: (request) => mock.preload(request) });
  afterAll(() => faulted.writeCoverage(inject('coverageDir')));
  it.each(allOps.map((op) => [label(op), op] as const))('%s', async (_name, op) => {
    const { apiKey, ids, snapshot } = org(op.variant);
    const auth = authHeaders(op.variant, apiKey);
    const path = fillPath(
      op.path,
      Object.fromEntries(op.pathParams.map((p) => [p.name, ids.get(p.name) ?? `${p.name}_missing`])),
    );
    const body = exampleBody(op);
    const before = await snapshot();
    const seen: unknown[] = [];
    for (const status of [429, 500, 502, 503] as const) {
      mock.faults.inject({ apiKey, operation: op.operationId, status, times: 1 });
      const response = await faulted.fetch(
        new Request(`${BASE}${path}`, {
          method: op.method.toUpperCase(),
          headers: { ...auth, ...(body ? { 'content-type': 'application/json' } : {}) },
          ...(body ? { body: JSON.stringify(body) } : {}),
        }),
      );
      expect(faulted.exchanges.at(-1)?.violations).toEqual([]);
      const answer = (await response.json()) as { error: { code: string } };
      seen.push({ status: response.status, code: answer.error.code, retryAfter: response.headers.get('Retry-After') });
    }
    expect(seen).toEqual([
      { status: 429, code: 'rate_limited', retryAfter: '1' },
      { status: 500, code: 'internal_error', retryAfter: null },
      { status: 502, code: 'bad_gateway', retryAfter: null },
      { status: 503, code: 'service_unavailable', retryAfter: '1' },
    ]);
    expect(mock.faults.list()).toEqual([]);
    expect(await snapshot(), 'a faulted request changes nothing').toBe(before);
  });
});

describe('400 on every operation that documents it, in the error format, changing nothing', () => {
  const documenting = allOps.filter((op) => op.responses.has('400'));
  it.each(documenting.map((op) => [label(op), op] as const))('%s', async (_name, op) => {
    const { apiKey, liveKey, ids, snapshot } = org(op.variant);
    const probes = badRequestProbes(op, BASE, ids, apiKey, liveKey);
    const before = await snapshot();
    const answers = [];
    for (const probe of probes) answers.push(await answer(recorder, probe));
    expect(answers).toEqual(
      probes.map((p) => ({ fault: p.fault, status: 400, code: p.code, ...(p.field ? { field: p.field } : {}) })),
    );
    expect(await snapshot(), 'a refused request changes nothing').toBe(before);
  });
});

describe('404 on every operation that documents it', () => {
  const documenting = allOps.filter((op) => op.responses.has('404'));
  it.each(documenting.map((op) => [label(op), op] as const))('%s', async (_name, op) => {
    const probe = notFoundProbe(op, BASE, org(op.variant).apiKey);
    if (!probe) throw new Error(`${op.operationId} documents 404 but names no object in its path or body`);
    expect(await answer(recorder, probe)).toEqual({ fault: probe.fault, status: 404, code: 'not_found' });
  });
});

describe('413 on every operation that takes a body', () => {
  const documenting = allOps.filter((op) => op.responses.has('413'));
  it('is documented exactly where a body is taken', () => {
    expect(documenting.map(label)).toEqual(allOps.filter((op) => op.requestBody).map(label));
  });
  it.each(documenting.map((op) => [label(op), op] as const))('%s', async (_name, op) => {
    const { apiKey, ids, snapshot } = org(op.variant);
    const path = Object.fromEntries(op.pathParams.map((p) => [p.name, ids.get(p.name) ?? `${p.name}_missing`]));
    // One byte over the default limit of 1 MiB, as the spec's example states it.
    const body = JSON.stringify({ padding: 'x'.repeat(1024 * 1024 - 13) });
    expect(body.length).toBe(1024 * 1024 + 1);
    const before = await snapshot();
    const probe: ErrorProbe = {
      fault: 'a body over the size limit',
      request: new Request(`${BASE}${fillPath(op.path, path)}`, {
        method: op.method.toUpperCase(),
        headers: { ...authHeaders(op.variant, apiKey), 'content-type': 'application/json' },
        body,
      }),
      code: 'payload_too_large',
    };
    expect(await answer(recorder, probe)).toEqual({ fault: probe.fault, status: 413, code: 'payload_too_large' });
    expect(await snapshot(), 'a refused request changes nothing').toBe(before);
  });
});
