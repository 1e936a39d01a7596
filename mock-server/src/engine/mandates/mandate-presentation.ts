import { moduleExports } from '../../core/cjs-interop.js';
import type { Tenant } from '../../core/tenant.js';
import { type MandateSpend, payeeMatches } from './mandate-constraints.js';
import { openMandateHash } from './mandate-hash.js';
import { trustedIssuerKey } from './mandate-issuers.js';
import { type MandateRefusal, rejected, unverifiable } from './mandate-refusal.js';
import type { PresentationCheck, VerifiedPresentation } from './mandate-types.js';

/** What jose-module.ts exports for mandates. */
interface MandateCrypto {
  verifyPresentation(presentation: string, check: PresentationCheck): Promise<VerifiedPresentation>;
  isUnverifiable(error: unknown): error is Error;
}
let crypto: Promise<MandateCrypto> | undefined;

/** jose and @sd-jwt/core, loaded once on the first mandate (ES module from the sources, CommonJS when published). */
function loadCrypto(): Promise<MandateCrypto> {
  crypto ??= import('../jose-module.js').then((module) => moduleExports<MandateCrypto>(module));
  return crypto;
}

/** How far the clocks of the issuer, the agent and Cardrail may differ (AP2's SDK allows 300 seconds). */
const SKEW_SECONDS = 300;
/** A presentation is made for one authorization: its `iat` must be this recent. */
const PRESENTATION_MAX_AGE_SECONDS = 300;

/** The `aud` a presentation for a card must name. */
function mandateAudience(cardId: string): string {
  return `urn:cardrail:card:${cardId}`;
}

/** A presentation whose signatures, binding, times and closed mandate verified: replay and constraints come next. */
export interface PresentedMandate {
  presentation: VerifiedPresentation;
  openMandateHash: string;
  /** Why the closed mandate is not for this spend, or null; weighed after replay, which comes first. */
  closedRefusal: MandateRefusal | null;
}

function timeRefusal(claims: Record<string, unknown>, which: string, now: number): MandateRefusal | null {
  const { exp, iat, nbf } = claims;
  if (exp !== undefined && typeof exp !== 'number') return unverifiable(`the ${which}'s exp is not a number`);
  if (typeof exp === 'number' && now > exp + SKEW_SECONDS) return unverifiable(`the ${which} expired`);
  if (typeof iat === 'number' && iat > now + SKEW_SECONDS) return unverifiable(`the ${which} is not yet valid (iat)`);
  if (typeof nbf === 'number' && nbf > now + SKEW_SECONDS) return unverifiable(`the ${which} is not yet valid (nbf)`);
  return null;
}

/** The closed mandate must describe this very spend, and repeat what the open mandate pre-set (AP2 step 2). */
function closedRefusal(open: Record<string, unknown>, closed: Record<string, unknown>, spend: MandateSpend) {
  const amount = closed.payment_amount as { amount?: unknown; currency?: unknown } | undefined;
  if (amount?.amount !== spend.amount || String(amount?.currency).toLowerCase() !== spend.currency)
    return rejected('payment_amount', `the closed mandate is not for ${spend.amount} ${spend.currency.toUpperCase()}`);
  if (!payeeMatches(closed.payee, spend.merchant))
    return rejected('payee', `the closed mandate's payee is not ${spend.merchant.name}`);
  if ((closed.payment_instrument as { id?: unknown } | undefined)?.id !== spend.cardId)
    return rejected('payment_instrument', `the closed mandate's instrument is not the card ${spend.cardId}`);
  for (const preset of ['payee', 'payment_amount', 'payment_instrument'])
    if (open[preset] !== undefined && JSON.stringify(open[preset]) !== JSON.stringify(closed[preset]))
      return rejected(preset, 'the closed mandate changes what the open mandate set');
  return null;
}

/**
 * Verifies an `agentMandate` for a spend of a card of `customerId`: the signature chain against the customer's
 * trusted issuers (docs/mandates.md#verification), the times of both mandates and of the presentation, and that the
 * closed mandate is for this spend (its refusal kept for later). Replay and constraints are checked where the
 * authorization is decided (mandate-gate.ts), since they read what earlier authorizations recorded.
 */
export async function presentMandate(
  tenant: Tenant,
  customerId: string,
  presentation: string,
  spend: MandateSpend,
): Promise<PresentedMandate | MandateRefusal> {
  const { verifyPresentation, isUnverifiable } = await loadCrypto();
  let verified: VerifiedPresentation;
  try {
    verified = await verifyPresentation(presentation, {
      issuerKey: (kid) => trustedIssuerKey(tenant, customerId, kid),
      audience: mandateAudience(spend.cardId),
    });
  } catch (error) {
    if (isUnverifiable(error)) return unverifiable(error.message);
    throw error;
  }
  const { open, closed } = verified;
  if (open.vct !== 'mandate.payment.open.1')
    return unverifiable(`the open mandate's vct ${String(open.vct)} is not mandate.payment.open.1`);
  if (closed.vct !== 'mandate.payment.1')
    return unverifiable(`the closed mandate's vct ${String(closed.vct)} is not mandate.payment.1`);
  const now = Math.floor(spend.now / 1000);
  if (typeof open.exp !== 'number') return unverifiable('the open mandate has no exp');
  const times = timeRefusal(open, 'open mandate', now) ?? timeRefusal(closed, 'closed mandate', now);
  if (times) return times;
  if (Math.abs(now - verified.presentedAt) > PRESENTATION_MAX_AGE_SECONDS)
    return unverifiable('the presentation is not fresh (its iat is more than 300 seconds away)');
  let hash: string;
  try {
    hash = await openMandateHash(open);
  } catch {
    return unverifiable('the open mandate cannot be canonicalized (RFC 8785)');
  }
  return { presentation: verified, openMandateHash: hash, closedRefusal: closedRefusal(open, closed, spend) };
}
