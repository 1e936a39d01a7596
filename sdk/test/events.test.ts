import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  CARDRAIL_EVENT_TYPES,
  constructEvent,
  eventGuards,
  isEventType,
  isKnownEventType,
  WebhookVerificationError,
  type CardrailEvent,
} from '../src/webhooks/index.js';

const secret = 'whsec_eventsTestSecret_0123456789abcdef';
const now = 1_795_000_000;

function signed(body: string) {
  const signature = createHmac('sha256', secret).update(`${now}.${body}`).digest('hex');
  return { payload: body, header: `t=${now},v1=${signature}`, secret, now };
}

const generalEnvelope = JSON.stringify({
  id: 'evt_1',
  type: 'card.frozen',
  createdAt: '2026-11-21T19:00:00.000Z',
  data: { cardId: 'card_1', agentId: 'agt_1', reason: 'manual', frozenBy: 'api' },
});
const catalogEnvelope = JSON.stringify({
  id: 'evt_2',
  type: 'transaction.declined',
  organizationId: 'org_1',
  createdAt: 1_795_000_000_000,
  data: {
    transactionId: 'txn_1',
    cardId: 'card_1',
    agentId: null,
    amount: 500,
    currency: 'USD',
    merchantName: 'Shop',
    status: 'declined',
    declinedReason: 'insufficient_funds',
  },
});

function specEventTypes(variant: 'customer' | 'user'): string[] {
  const spec = JSON.parse(readFileSync(new URL(`../../spec/dist/${variant}.json`, import.meta.url), 'utf8')) as {
    webhooks: object;
  };
  return Object.keys(spec.webhooks);
}

describe('constructEvent', () => {
  it('verifies and returns an event in the general envelope, narrowed by type', async () => {
    const event = await constructEvent(signed(generalEnvelope));
    expect(event).toEqual(JSON.parse(generalEnvelope));
    if (event.type !== 'card.frozen') throw new Error('expected card.frozen');
    expect(event.data.reason).toBe('manual');
  });

  it('returns an event in the event-catalog envelope from a Buffer body', async () => {
    const event: CardrailEvent = await constructEvent({ ...signed(catalogEnvelope), payload: Buffer.from(catalogEnvelope) });
    expect(isEventType(event, 'transaction.declined') && event.data.declinedReason).toBe('insufficient_funds');
    expect(event).toMatchObject({ organizationId: 'org_1', createdAt: 1_795_000_000_000 });
  });

  it('refuses before parsing when the signature does not match', async () => {
    const tampered = { ...signed(generalEnvelope), payload: generalEnvelope.replace('manual', 'system') };
    await expect(constructEvent(tampered)).rejects.toMatchObject({ code: 'signature_mismatch' });
  });

  it('refuses a parsed object', async () => {
    const params = { ...signed(generalEnvelope), payload: JSON.parse(generalEnvelope) as never };
    await expect(constructEvent(params)).rejects.toMatchObject({ code: 'invalid_payload' });
  });

  it('reports a correctly signed body that is not an event', async () => {
    for (const body of ['not json', '[1,2]', '{"id":"evt_1"}']) {
      const error = await constructEvent(signed(body)).catch((reason: unknown) => reason);
      expect(error).toBeInstanceOf(WebhookVerificationError);
      expect((error as WebhookVerificationError).code).toBe('invalid_json');
    }
  });
});

describe('event types and guards', () => {
  it('knows exactly the event types both specs declare under webhooks', () => {
    const fromSpecs = new Set([...specEventTypes('customer'), ...specEventTypes('user')]);
    expect([...CARDRAIL_EVENT_TYPES].sort()).toEqual([...fromSpecs].sort());
  });

  it('has one guard per type that accepts only its own type', () => {
    expect(Object.keys(eventGuards).sort()).toEqual([...CARDRAIL_EVENT_TYPES].sort());
    const frozen = JSON.parse(generalEnvelope) as CardrailEvent;
    for (const type of CARDRAIL_EVENT_TYPES) {
      expect(eventGuards[type](frozen), type).toBe(type === 'card.frozen');
    }
  });

  it('filters a list of events with a guard', () => {
    const events = [JSON.parse(generalEnvelope), JSON.parse(catalogEnvelope)] as CardrailEvent[];
    const declined = events.filter(eventGuards['transaction.declined']);
    expect(declined.map((event) => event.data.declinedReason)).toEqual(['insufficient_funds']);
  });

  it('tells known from unknown type strings', () => {
    expect(isKnownEventType('card.frozen')).toBe(true);
    expect(isKnownEventType('card.melted')).toBe(false);
    expect(isEventType(undefined, 'card.frozen')).toBe(false);
  });
});
