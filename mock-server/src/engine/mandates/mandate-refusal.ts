/**
 * Why a mandate does not let a spend through: it could not be verified (`mandate_unverifiable`: AP2's
 * `invalid_credential` or `unresolved_constraint`), or it was verified but does not allow this spend
 * (`mandate_rejected`: AP2's `invalid_mandate`), the message naming the constraint. Two reasons, since they are
 * opposite facts: "we could not tell" and "the agent exceeded its authority".
 */
export interface MandateRefusal {
  reason: 'mandate_unverifiable' | 'mandate_rejected';
  message: string;
}

export const unverifiable = (message: string): MandateRefusal => ({ reason: 'mandate_unverifiable', message });
export const rejected = (constraint: string, message: string): MandateRefusal => ({
  reason: 'mandate_rejected',
  message: `${constraint}: ${message}`,
});
