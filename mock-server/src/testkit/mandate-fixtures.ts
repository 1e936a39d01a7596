import { base64urlToText, bytesToBase64url, textToBase64url } from '../core/base64url.js';
import { type CredentialProvider, createCredentialProvider, type MandateAgent } from './credential-provider.js';

/** What the adversarial presentations are made from: the same inputs a valid presentation has. */
export interface MandateFixtureInput {
  /** The trusted credential provider. */
  provider: CredentialProvider;
  /** The agent whose key is the claims' `cnf`. */
  agent: MandateAgent;
  /** Valid open mandate claims (`POST /intents/{id}/mandate`'s `claims`, with the agent's key). */
  claims: Record<string, unknown>;
  /** The closed mandate of the spend (`closedMandateFor`). */
  closed: Record<string, unknown>;
  /** The card's audience, `urn:cardrail:card:<cardId>`. */
  aud: string;
  /** Now, in epoch seconds (the mock's clock). */
  now: number;
}

/** Why a verifier must refuse each fixture: the decline reason Cardrail gives it. */
export type MandateFixtureExpectation = 'mandate_unverifiable' | 'mandate_rejected';

/** An adversarial presentation and the reason an authorization with it is declined with. */
export interface MandateFixture {
  /** The presentation, to give as an authorization's `agentMandate`. */
  presentation: string;
  /** The decline reason an authorization with it must get. */
  expected: MandateFixtureExpectation;
}

/** The fixtures' names. */
export type MandateFixtureName =
  | 'altered'
  | 'expired'
  | 'notYetValid'
  | 'wrongAudience'
  | 'unknownKey'
  | 'algNone'
  | 'algHs256'
  | 'budgetInMinorUnits'
  | 'missingReference'
  | 'unknownConstraint'
  | 'notAnSdJwt';

type Constraint = Record<string, unknown>;

function withConstraints(claims: Record<string, unknown>, change: (constraints: Constraint[]) => Constraint[]) {
  return { ...claims, constraints: change([...((claims.constraints as Constraint[] | undefined) ?? [])]) };
}

/** The root JWT of a presentation with another header and signature, its payload and disclosures kept. */
async function reSigned(
  presentation: string,
  header: Record<string, unknown>,
  secret?: Uint8Array<ArrayBuffer>,
): Promise<string> {
  const [rootJwt = '', ...rest] = presentation.split('~');
  const [, payload = ''] = rootJwt.split('.');
  const signingInput = `${textToBase64url(JSON.stringify(header))}.${payload}`;
  let signature = '';
  if (secret) {
    const key = await crypto.subtle.importKey('raw', secret, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    signature = bytesToBase64url(new Uint8Array(await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(signingInput))));
  }
  return [`${signingInput}.${signature}`, ...rest].join('~');
}

/** The root JWT's payload changed after it was signed (a digest of the mandate swapped for another). */
function altered(presentation: string): string {
  const [rootJwt = '', ...rest] = presentation.split('~');
  const [header = '', payload = '', signature = ''] = rootJwt.split('.');
  const claims = JSON.parse(base64urlToText(payload) ?? '{}') as Record<string, unknown>;
  const forged = textToBase64url(JSON.stringify({ ...claims, _sd_alg: 'sha-256', forged: true }));
  return [`${header}.${forged}.${signature}`, ...rest].join('~');
}

/**
 * The presentations a verifier of AP2 mandates must refuse (issue and present them with the kit's fakes): an altered
 * open mandate, an expired one, one not yet valid, a presentation for another audience, a mandate signed by a key
 * the customer does not trust, `alg: none`, `alg: HS256` keyed with the issuer's public key, a budget written in
 * minor units (100 times too large), constraints without `payment.reference`, a constraint type Cardrail does not
 * know, a value that is not an SD-JWT. A replay is the valid presentation presented twice; a changed constraint
 * order is valid, with another hash.
 */
export async function mandateFixtures(input: MandateFixtureInput): Promise<Record<MandateFixtureName, MandateFixture>> {
  const { provider, agent, claims, closed, aud, now } = input;
  const present = async (open: Record<string, unknown>, options: { issuer?: CredentialProvider; aud?: string } = {}) =>
    agent.present(await (options.issuer ?? provider).issue(open), closed, { aud: options.aud ?? aud, iat: now });
  const valid = await present(claims);
  // Another provider's key under the trusted key's kid: the signature, not the name, decides.
  const stranger = await createCredentialProvider({ kid: provider.kid });
  const publicKey = new TextEncoder().encode(JSON.stringify(provider.jwks.keys[0]));
  const unverifiable = (presentation: string): MandateFixture => ({ presentation, expected: 'mandate_unverifiable' });
  const range = (claims.constraints as Constraint[]).find((c) => c.type === 'payment.amount_range');
  return {
    altered: unverifiable(altered(valid)),
    expired: unverifiable(await present({ ...claims, iat: now - 7200, exp: now - 3600 })),
    notYetValid: unverifiable(await present({ ...claims, iat: now + 3600, exp: now + 7200 })),
    wrongAudience: unverifiable(await present(claims, { aud: `${aud}-other` })),
    unknownKey: unverifiable(await present(claims, { issuer: stranger })),
    algNone: unverifiable(await reSigned(valid, { alg: 'none', kid: provider.kid })),
    algHs256: unverifiable(await reSigned(valid, { alg: 'HS256', kid: provider.kid }, publicKey)),
    budgetInMinorUnits: unverifiable(
      await present(
        withConstraints(claims, (all) =>
          all.map((c) => (c.type === 'payment.budget' ? { ...c, max: Number(range?.max ?? 0) } : c)),
        ),
      ),
    ),
    missingReference: unverifiable(
      await present(withConstraints(claims, (all) => all.filter((c) => c.type !== 'payment.reference'))),
    ),
    unknownConstraint: unverifiable(
      await present(withConstraints(claims, (all) => [...all, { type: 'payment.mcc', allowed: ['5734'] }])),
    ),
    notAnSdJwt: unverifiable('this is not an SD-JWT'),
  };
}
