import { toIsoOrNull } from '../../core/clock.js';
import type { ApiSchemas } from '../../core/stored.js';
import type { getMandateIssuers } from '../../engine/mandates/mandate-issuers.js';
import type { exportIntentMandate } from '../../engine/mandates/intent-mandate.js';

type IssuersView = ReturnType<typeof getMandateIssuers>;
type IntentMandateView = Awaited<ReturnType<typeof exportIntentMandate>>;

/** A customer's trusted mandate issuers (`MandateIssuers`): `updatedAt` in ISO 8601. */
export function renderMandateIssuers(view: IssuersView): ApiSchemas['MandateIssuers'] {
  return { customerId: view.customerId, keys: view.keys, updatedAt: toIsoOrNull(view.updatedAt) };
}

/** An intent's open payment mandate (`IntentMandate`); every constraint carries its `type`, as the engine built it. */
export function renderIntentMandate(view: IntentMandateView): ApiSchemas['IntentMandate'] {
  const constraints = view.claims.constraints.map((constraint) => ({ ...constraint, type: String(constraint.type) }));
  return { claims: { ...view.claims, constraints }, openMandateHash: view.openMandateHash };
}
