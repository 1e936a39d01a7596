// intents.waitForDecision: reads until the intent leaves pending_approval, pausing longer each time, bounded by
// timeoutMs (a typed DecisionTimeoutError carrying the last intent) and by the caller's signal.
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { Cardrail, CardrailUsers, DecisionTimeoutError, NotFoundError, RequestAbortedError } from '../src/index.js';
import { useMswServer } from './support/msw.js';

const server = useMswServer();
const baseUrl = 'http://127.0.0.1:4010/v1';
const client = new Cardrail({ apiKey: 'sk_test_decision01', baseUrl, maxRetries: 0 });

function intent(status: string, extra: Record<string, unknown> = {}) {
  return {
    id: 'int_wait1',
    customerIntentId: null,
    cardId: 'card_1',
    agentId: 'agt_1',
    summary: 'GPU credits',
    expectedAmount: 2500,
    currency: 'usd',
    expectedMerchant: 'OpenAI',
    tolerance: { percent: 10, amount: 500 },
    status,
    ttlMinutes: 60,
    expiresAt: '2026-11-21T13:00:00.000Z',
    createdAt: '2026-11-21T12:00:00.000Z',
    approvedAt: null,
    approvedBy: null,
    rejectedAt: null,
    rejectedBy: null,
    rejectionReason: null,
    matchedTransactionId: null,
    approvalUrl: 'http://127.0.0.1:4010/#/approvals/int_wait1',
    ...extra,
  };
}

/** Answers each read with the next status of `statuses` (the last one from then on); records when reads came. */
function statuses(...sequence: string[]): number[] {
  const reads: number[] = [];
  server.use(
    http.get(`${baseUrl}/intents/int_wait1`, () => {
      reads.push(performance.now());
      const status = sequence[Math.min(reads.length - 1, sequence.length - 1)] as string;
      return HttpResponse.json(
        intent(status, status === 'pending' ? { approvedAt: '2026-11-21T12:01:00.000Z', approvedBy: 'api' } : {}),
      );
    }),
  );
  return reads;
}

describe('intents.waitForDecision', () => {
  it('resolves with the intent once a person approved it, reading again while it waits', async () => {
    const reads = statuses('pending_approval', 'pending_approval', 'pending');
    const pending: string[] = [];
    const decided = await client.intents.waitForDecision('int_wait1', {
      pollIntervalMs: 10,
      onPending: (seen) => pending.push(seen.status),
    });
    expect(decided.status).toBe('pending');
    expect(decided.approvedBy).toBe('api');
    expect(reads).toHaveLength(3);
    expect(pending).toEqual(['pending_approval', 'pending_approval']);
  });

  it.each(['rejected', 'expired', 'pending', 'matched'])('answers at once an intent already %s', async (status) => {
    const reads = statuses(status);
    expect((await client.intents.waitForDecision('int_wait1')).status).toBe(status);
    expect(reads).toHaveLength(1);
  });

  it('works the same on the user variant', async () => {
    statuses('pending_approval', 'rejected');
    const users = new CardrailUsers({ apiKey: 'sk_test_decision01', baseUrl, maxRetries: 0 });
    expect((await users.intents.waitForDecision('int_wait1', { pollIntervalMs: 5 })).status).toBe('rejected');
  });

  it('pauses longer after each read (backoff), so a long wait costs few requests', async () => {
    const reads = statuses('pending_approval');
    await expect(client.intents.waitForDecision('int_wait1', { pollIntervalMs: 100, timeoutMs: 1_000 })).rejects.toThrow(
      DecisionTimeoutError,
    );
    // Without backoff: 10 reads in a second. With pauses of 100, 150, 225, 338 ms...: 5 at most, however fast the machine.
    expect(reads.length).toBeGreaterThanOrEqual(2);
    expect(reads.length).toBeLessThanOrEqual(5);
  });

  it('throws a DecisionTimeoutError carrying the intent as last read once timeoutMs has passed', async () => {
    statuses('pending_approval');
    const started = performance.now();
    const error = await client.intents
      .waitForDecision('int_wait1', { pollIntervalMs: 20, timeoutMs: 150 })
      .catch((e: unknown) => e);
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(error).toBeInstanceOf(DecisionTimeoutError);
    const timeout = error as DecisionTimeoutError;
    expect(timeout.code).toBe('decision_timeout');
    expect(timeout.intentId).toBe('int_wait1');
    expect(timeout.intent.status).toBe('pending_approval');
    expect(timeout.waitedMs).toBeGreaterThanOrEqual(150);
    expect(timeout.message).toContain('http://127.0.0.1:4010/#/approvals/int_wait1');
  });

  it('bounds a read that hangs by the same timeout', async () => {
    server.use(http.get(`${baseUrl}/intents/int_wait1`, () => new Promise<never>(() => {})));
    const started = performance.now();
    const error = await client.intents.waitForDecision('int_wait1', { timeoutMs: 200 }).catch((e: unknown) => e);
    expect(performance.now() - started).toBeLessThan(5_000);
    expect((error as Error).name).toBe('TimeoutError');
    expect((error as Error).message).toContain('int_wait1');
  });

  it('stops at once with RequestAbortedError when the caller aborts, during a pause or before starting', async () => {
    const reads = statuses('pending_approval');
    const controller = new AbortController();
    const waiting = client.intents.waitForDecision('int_wait1', { pollIntervalMs: 60_000, signal: controller.signal });
    await expect.poll(() => reads.length).toBe(1);
    controller.abort(new Error('the person left'));
    await expect(waiting).rejects.toThrow(RequestAbortedError);

    const aborted = AbortSignal.abort();
    await expect(client.intents.waitForDecision('int_wait1', { signal: aborted })).rejects.toThrow(RequestAbortedError);
    expect(reads).toHaveLength(1);
  });

  it('passes the API error of a read through (an unknown intent is NotFoundError)', async () => {
    server.use(http.get(`${baseUrl}/intents/int_wait1`, () => HttpResponse.json({ error: 'not_found' }, { status: 404 })));
    await expect(client.intents.waitForDecision('int_wait1')).rejects.toThrow(NotFoundError);
  });

  it('refuses a negative or non-finite timeout before any request', async () => {
    const reads = statuses('pending');
    await expect(client.intents.waitForDecision('int_wait1', { timeoutMs: -1 })).rejects.toThrow(/timeoutMs must be/);
    await expect(client.intents.waitForDecision('int_wait1', { pollIntervalMs: Number.NaN })).rejects.toThrow(/pollIntervalMs/);
    expect(reads).toHaveLength(0);
  });
});
