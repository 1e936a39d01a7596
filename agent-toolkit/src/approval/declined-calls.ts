import type { CardrailToolkit } from '../toolkit.js';

/** The most refusals kept at once: a run that never executes its refused calls cannot grow the map without end. */
const LIMIT = 1_000;

/**
 * Tool calls an approval step refused (the spend would be declined) but whose framework runs them anyway (a boolean
 * `needsApproval` cannot deny): their execution refuses with the reason. Kept per call id, taken once.
 */
export class DeclinedCalls {
  readonly #reasons = new Map<string, string>();

  remember(callId: string, reason: string): void {
    this.#reasons.delete(callId);
    this.#reasons.set(callId, reason);
    if (this.#reasons.size > LIMIT) {
      const oldest = this.#reasons.keys().next().value;
      if (oldest !== undefined) this.#reasons.delete(oldest);
    }
  }

  take(callId: string): string | undefined {
    const reason = this.#reasons.get(callId);
    this.#reasons.delete(callId);
    return reason;
  }
}

const byToolkit = new WeakMap<CardrailToolkit, DeclinedCalls>();

/** The refusals of one toolkit, shared by every tool set made from it (an approval step and the call it judged). */
export function declinedCallsOf(toolkit: CardrailToolkit): DeclinedCalls {
  let calls = byToolkit.get(toolkit);
  if (calls === undefined) {
    calls = new DeclinedCalls();
    byToolkit.set(toolkit, calls);
  }
  return calls;
}
