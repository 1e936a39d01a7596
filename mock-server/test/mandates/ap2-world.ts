// A customer, its card and what a mandate needs around them: a trusted credential provider, an agent key, an
// intent exported as open mandate claims and signed, and presentations for spends; all through the HTTP API.
import {
  closedMandateFor,
  createCredentialProvider,
  createMandateAgent,
  type CredentialProvider,
  type MandateAgent,
} from '../../src/index.js';
import { SCENARIO_START, Scenario } from '../engine/support/http-scenario.js';

export const NOW_SECONDS = Math.floor(Date.parse(SCENARIO_START) / 1000);
export const MERCHANT = { name: 'OpenAI', mcc: '5734' };

export interface Ap2World {
  s: Scenario;
  customer: { id: string };
  card: { id: string; last4: string };
  provider: CredentialProvider;
  agent: MandateAgent;
  intent: { id: string };
  exported: { claims: Record<string, unknown> & { constraints: Record<string, unknown>[] }; openMandateHash: string };
  /** The exported claims, signed by the trusted provider. */
  openMandate: string;
  /** A presentation of `openMandate` for a spend at `MERCHANT` (or the spend given). */
  present(options?: {
    amount?: number;
    merchant?: { name: string; id?: string };
    openMandate?: string;
    aud?: string;
    iat?: number;
    nonce?: string;
    closed?: Record<string, unknown>;
  }): Promise<string>;
  /** `POST /simulate/authorize` of the card at `MERCHANT` with `agentMandate` (a 200 answer's body). */
  authorize(agentMandate: string | undefined, amount?: number, merchant?: { name: string; mcc?: string }): Promise<any>;
}

export async function ap2World(
  options: { card?: Record<string, unknown>; customer?: Record<string, unknown>; expectedAmount?: number } = {},
): Promise<Ap2World> {
  const s = new Scenario();
  const { customer, card } = await s.setup({ card: options.card, customer: options.customer });
  const provider = await createCredentialProvider();
  const agent = await createMandateAgent();
  await s.ok('POST', `/customers/${customer.id}/mandate-issuers`, provider.jwks);
  const intent = await s.ok('POST', '/intents', {
    cardId: card.id,
    summary: 'GPU credits',
    expectedAmount: options.expectedAmount ?? 2500,
    currency: 'usd',
    expectedMerchant: MERCHANT.name,
  });
  const exported = await s.ok('POST', `/intents/${intent.id}/mandate`, { agentKey: agent.publicJwk });
  const openMandate = await provider.issue(exported.claims);
  const world: Ap2World = {
    s,
    customer,
    card,
    provider,
    agent,
    intent,
    exported,
    openMandate,
    present: (p = {}) =>
      agent.present(
        p.openMandate ?? openMandate,
        p.closed ??
          closedMandateFor({ amount: p.amount ?? 2500, currency: 'usd', merchant: p.merchant ?? MERCHANT, cardId: card.id }),
        { aud: p.aud ?? `urn:cardrail:card:${card.id}`, iat: p.iat ?? NOW_SECONDS, ...(p.nonce ? { nonce: p.nonce } : {}) },
      ),
    authorize: (agentMandate, amount = 2500, merchant = MERCHANT) =>
      s.authorize(card.id, amount, merchant, agentMandate === undefined ? {} : { agentMandate }),
  };
  return world;
}
