import { moduleExports } from '../core/cjs-interop.js';
import type { MandateJwk } from '../engine/mandates/mandate-types.js';
import type { PresentationOptions } from '../engine/mandates/mandate-issuing.js';

/** What jose-module.ts exports for issuing mandates. */
interface MandateIssuing {
  generateMandateKey(kid?: string): Promise<{ privateJwk: MandateJwk; publicJwk: MandateJwk }>;
  issueOpenMandate(privateJwk: MandateJwk, claims: Record<string, unknown>): Promise<string>;
  presentClosedMandate(
    agentPrivateJwk: MandateJwk,
    openMandate: string,
    closedMandate: Record<string, unknown>,
    options: PresentationOptions,
  ): Promise<string>;
}
let issuing: Promise<MandateIssuing> | undefined;
function loadIssuing(): Promise<MandateIssuing> {
  issuing ??= import('../engine/jose-module.js').then((module) => moduleExports<MandateIssuing>(module));
  return issuing;
}

/** A public JSON Web Key, as `MandatePublicJwk` of the spec (the same type as {@link MandateJwk}). */
export type PublicJwk = MandateJwk;

/**
 * A fake credential provider: the party whose signed open payment mandates a customer trusts (set its `jwks` with
 * `POST /customers/{id}/mandate-issuers`). Its ES256 key is made for the test, in memory, and never leaves the
 * process: nothing is served or fetched.
 */
export interface CredentialProvider {
  /** The `kid` of its key. */
  kid: string;
  /** Its public key, as a JSON Web Key Set: the body of `POST /customers/{id}/mandate-issuers` as it is. */
  jwks: {
    /** Its one public key (`kty` `EC`, `crv` `P-256`, `x`, `y`, its `kid`), the private part left out. */
    keys: PublicJwk[];
  };
  /** Signs open mandate claims (such as `POST /intents/{id}/mandate` answers) as an AP2 open mandate SD-JWT. */
  issue(claims: Record<string, unknown>): Promise<string>;
}

/** An agent holding the key of an open mandate's `cnf`, presenting closed mandates with it. */
export interface MandateAgent {
  /** The public key to give as `agentKey` (it becomes the mandate's `cnf`). */
  publicJwk: PublicJwk;
  /**
   * The presentation of an open mandate for one spend (`agentMandate`): the closed mandate, bound to `aud`
   * (`urn:cardrail:card:<cardId>`), a nonce (random unless given) and `iat` (epoch seconds, now unless given).
   */
  present(
    openMandate: string,
    closedMandate: Record<string, unknown>,
    options: { aud: string; nonce?: string; iat?: number },
  ): Promise<string>;
}

/** A credential provider with a new throwaway ES256 key. */
export async function createCredentialProvider(options: { kid?: string } = {}): Promise<CredentialProvider> {
  const { generateMandateKey, issueOpenMandate } = await loadIssuing();
  const kid = options.kid ?? `cp-${crypto.randomUUID()}`;
  const { privateJwk, publicJwk } = await generateMandateKey(kid);
  return { kid, jwks: { keys: [publicJwk] }, issue: (claims) => issueOpenMandate(privateJwk, claims) };
}

/** An agent with a new throwaway ES256 key. */
export async function createMandateAgent(): Promise<MandateAgent> {
  const { generateMandateKey, presentClosedMandate } = await loadIssuing();
  const { privateJwk, publicJwk } = await generateMandateKey();
  return {
    publicJwk,
    present: (openMandate, closedMandate, { aud, nonce, iat }) =>
      presentClosedMandate(privateJwk, openMandate, closedMandate, {
        aud,
        nonce: nonce ?? crypto.randomUUID(),
        iat: iat ?? Math.floor(Date.now() / 1000),
      }),
  };
}

/** The spend a closed payment mandate (`mandate.payment.1`) describes. */
export interface ClosedMandateSpend {
  /** The amount in minor units of the currency (AP2's `payment_amount.amount`; 2500 is 25.00 USD). */
  amount: number;
  /** The ISO 4217 code of the currency, in either case (`usd`; the mandate says `USD`). */
  currency: string;
  /** The payee (AP2's `payee`): the merchant the authorization names. */
  merchant: {
    /** The merchant's name, as the authorization gives it (`OpenAI`). */
    name: string;
    /** The merchant's id in the mandate; its name unless given. */
    id?: string;
  };
  /** The card the spend is made with (AP2's `payment_instrument`, of type `card`). */
  cardId: string;
  /** The checkout it pays (AP2's `transaction_id`); a random one unless given. */
  transactionId?: string;
}

/** A closed payment mandate for a spend: what the agent presents with the open mandate. */
export function closedMandateFor(spend: ClosedMandateSpend): Record<string, unknown> {
  return {
    vct: 'mandate.payment.1',
    transaction_id: spend.transactionId ?? crypto.randomUUID(),
    payee: { id: spend.merchant.id ?? spend.merchant.name, name: spend.merchant.name },
    payment_amount: { amount: spend.amount, currency: spend.currency.toUpperCase() },
    payment_instrument: { id: spend.cardId, type: 'card' },
  };
}
