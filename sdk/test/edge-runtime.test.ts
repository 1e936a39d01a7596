// @vitest-environment edge-runtime
// Runs the built package (dist/, what users install) inside the edge-runtime environment: web-standard globals
// only (fetch, Request, Response, Web Crypto, AbortController), as on Vercel Edge, Cloudflare Workers and Deno.
import { describe, expect, it } from 'vitest';
import { Cardrail, NotFoundError } from '../dist/index.mjs';
import {
  constructEvent,
  constructEventSync,
  generateSignatureHeader,
  verifySignature,
  verifySignatureSync,
} from '../dist/webhooks.mjs';

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

describe('the built SDK on an edge runtime', () => {
  it('sends requests, retries a 503 with the same idempotency key and parses both error forms', async () => {
    const seen: Request[] = [];
    const responses = [
      json({ error: { code: 'internal_error', message: 'down', details: null } }, 503, { 'retry-after-ms': '1' }),
      json({ id: 'cus_1', email: 'ada@example.com' }, 201),
      json({ error: 'not_found' }, 404, { 'request-id': 'req_edge' }),
    ];
    const client = new Cardrail({
      apiKey: 'sk_test_edgeruntime1',
      baseUrl: 'http://127.0.0.1:4010/v1',
      fetch: async (input: RequestInfo | URL, init?: RequestInit) => {
        seen.push(new Request(input, init));
        return responses.shift() ?? json({}, 500);
      },
    });
    const customer = await client.customers.create({ email: 'ada@example.com' });
    expect(customer.id).toBe('cus_1');
    expect(seen).toHaveLength(2);
    expect(seen[0]?.headers.get('authorization')).toBe('Bearer sk_test_edgeruntime1');
    expect(seen[0]?.headers.get('idempotency-key')).toBeTruthy();
    expect(seen[1]?.headers.get('idempotency-key')).toBe(seen[0]?.headers.get('idempotency-key'));
    expect(await seen[1]?.json()).toEqual({ email: 'ada@example.com' });

    const error = await client.customers.retrieve('cus_missing').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ status: 404, code: 'not_found', requestId: 'req_edge' });
  });

  it('signs, verifies and constructs webhook events with Web Crypto', async () => {
    const payload = JSON.stringify({
      id: 'evt_1',
      type: 'card.frozen',
      createdAt: '2026-11-21T12:00:00.000Z',
      data: { cardId: 'card_1', agentId: null, reason: 'manual', frozenBy: 'api' },
    });
    const secret = 'whsec_edgeedgeedgeedgeedgeedgeedge12';
    const header = await generateSignatureHeader({ payload, secret, timestamp: 1_763_726_400 });
    await expect(verifySignature({ payload, header, secret, now: 1_763_726_400 })).resolves.toBeUndefined();
    await expect(
      verifySignature({ payload: payload.replace('manual', 'api'), header, secret, now: 1_763_726_400 }),
    ).rejects.toMatchObject({ code: 'signature_mismatch' });
    const event = await constructEvent({ payload, header, secret, now: 1_763_726_400 });
    expect(event.type).toBe('card.frozen');
  });

  it('has no synchronous HMAC, and says which function to use instead', async () => {
    const payload = '{"type":"card.frozen"}';
    const secret = 'whsec_edgeedgeedgeedgeedgeedgeedge12';
    const header = await generateSignatureHeader({ payload, secret, timestamp: 1_763_726_400 });
    expect(() => verifySignatureSync({ payload, header, secret, now: 1_763_726_400 })).toThrow(/await verifySignature\(\.\.\.\)/);
    expect(() => constructEventSync({ payload, header, secret, now: 1_763_726_400 })).toThrow(/await constructEvent\(\.\.\.\)/);
  });
});
