import type { WorkClaim } from './shared-gate.js';
import type { OrganizationCommit, OrganizationSession } from './shared-store.js';

interface HeldClaim extends WorkClaim {
  /** performance.now() when its lease ends. */
  until: number;
}

/**
 * One transaction of an organization: the lock, the requests run under it, their commit. A failed batch has no
 * transaction: it seats the participants that were on their way back into the lock (after waiting outside it) when the
 * store could not be reached, until each has unwound; nothing they change is kept, and no batch opens meanwhile.
 */
export class Batch {
  /** Participants running now (a request, due work, an attempt's outcome); it commits when none is left. */
  active = 0;
  participants = 0;
  accepting = true;
  readonly claims = new Map<string, HeldClaim>();
  readonly taken: OrganizationCommit['claimsTaken'] = [];
  readonly dropped: OrganizationCommit['claimsDropped'] = [];
  readonly done: Promise<void>;
  settle!: (error?: unknown) => void;

  /** `session` undefined: a failed batch, of `failure`'s participants. */
  constructor(
    readonly session: OrganizationSession | undefined,
    readonly failure?: unknown,
  ) {
    this.done = new Promise<void>((resolve, reject) => {
      this.settle = (error) => (error === undefined ? resolve() : reject(error));
    });
    // A batch nobody awaits any more (every participant answered already) must not end as an unhandled rejection.
    this.done.catch(() => undefined);
    if (!session) {
      this.accepting = false;
      return;
    }
    const now = performance.now();
    for (const claim of session.claims) this.claims.set(claim.work, { ...claim, until: now + claim.remainingMs });
  }

  /** Takes a claim (TenantGate.claim): undefined while another holds it and its lease has not ended. */
  claim(work: string, leaseMs: number): WorkClaim | undefined {
    const now = performance.now();
    const held = this.claims.get(work);
    if (held && held.until > now) return undefined;
    const claim = { work, token: randomToken(), until: now + leaseMs };
    this.claims.set(work, claim);
    this.taken.push({ work, token: claim.token, leaseMs });
    return claim;
  }

  holds(claim: WorkClaim): boolean {
    return this.claims.get(claim.work)?.token === claim.token;
  }

  release(claim: WorkClaim): void {
    if (this.claims.get(claim.work)?.token !== claim.token) return;
    this.claims.delete(claim.work);
    this.dropped.push({ work: claim.work, token: claim.token });
  }

  /** Gives back every claim whose lease ended (its holder died or froze). */
  dropExpired(): void {
    const now = performance.now();
    for (const [work, claim] of this.claims) {
      if (claim.until > now) continue;
      this.claims.delete(work);
      this.dropped.push({ work, token: claim.token });
    }
  }
}

function randomToken(): string {
  const bytes = new Uint8Array(12);
  globalThis.crypto.getRandomValues(bytes);
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}
