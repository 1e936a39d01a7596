import type { MandateInput } from './mandate-gate.js';
import type { PresentedMandate } from './mandate-presentation.js';
import { rejected } from './mandate-refusal.js';
import type { BoundMandate } from './mandate-types.js';

/** What a token keeps of the presentation it was minted with. */
export function bindMandate(presented: PresentedMandate): BoundMandate {
  return {
    openMandateHash: presented.openMandateHash,
    reference: presented.presentation.reference,
    constraints: presented.presentation.open.constraints,
  };
}

/**
 * The mandate of an authorization made with a token: the token's, when it presents none; a fresh presentation of
 * the token's open mandate, verified against this authorization, when it presents one; a presentation of any other
 * open mandate is refused (`mandate_rejected`), recorded as presented. A token minted without a mandate changes
 * nothing.
 */
export function withTokenMandate(bound: BoundMandate | null, presented: MandateInput): MandateInput {
  if (bound === null) return presented;
  if (presented === undefined) return { bound };
  if (!('presentation' in presented) || presented.openMandateHash === bound.openMandateHash) return presented;
  return {
    ...presented,
    closedRefusal: rejected(
      'payment token',
      `the token is bound to the AP2 mandate ${bound.openMandateHash}, not ${presented.openMandateHash}`,
    ),
  };
}
