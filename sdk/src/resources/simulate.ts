import { APIResource } from '../core/api-resource.js';
import type { VariantPaths } from './variant-paths.js';

const byTransactionId = (transactionId: string) => ({ transactionId });
const byWithdrawalId = (withdrawalId: string) => ({ withdrawalId });

/** The test clock that drives expiries, webhook retries and idempotency-key lifetimes in test mode. */
export class SimulatedClock<Paths extends VariantPaths> extends APIResource<Paths> {
  /** The organization's test-clock time. */
  readonly retrieve = this.call('get', '/simulate/clock');

  /**
   * Moves the test clock forward by `seconds`, running all work that became due (expiries, webhook retries) in time
   * order before it answers.
   */
  readonly advance = this.callWithBody('post', '/simulate/clock/advance');
}

/** Test-mode helpers that make the service do what the card network, chain or KYC provider would. Live keys get 400 `test_mode_only`. */
export class Simulate<Paths extends VariantPaths> extends APIResource<Paths> {
  /** The organization's test clock. */
  readonly clock = new SimulatedClock(this.core);

  /** A card authorization at a merchant: the Transaction comes back `pending` or `declined`. */
  readonly authorize = this.callWithBody('post', '/simulate/authorize');

  /** A settlement of a transaction, as the card network would send it. */
  readonly settle = this.callWithBody('post', '/simulate/transactions/{transactionId}/settle', byTransactionId);

  /** A reversal of a transaction (a void or a refund). */
  readonly reverse = this.callWithBody('post', '/simulate/transactions/{transactionId}/reverse', byTransactionId);

  /** A chargeback on a transaction. */
  readonly dispute = this.callWithBody('post', '/simulate/transactions/{transactionId}/dispute', byTransactionId);

  /** The resolution of a dispute. */
  readonly resolveDispute = this.callWithBody('post', '/simulate/disputes/{disputeId}/resolve', (disputeId: string) => ({
    disputeId,
  }));

  /** An on-chain deposit to a customer (user): raises `available`. */
  readonly deposit = this.callWithBody('post', '/simulate/deposits');

  /** The on-chain confirmation of a withdrawal. */
  readonly confirmWithdrawal = this.call('post', '/simulate/withdrawals/{withdrawalId}/confirm', byWithdrawalId);

  /** The failure of a withdrawal on chain. */
  readonly failWithdrawal = this.call('post', '/simulate/withdrawals/{withdrawalId}/fail', byWithdrawalId);

  /** The outcome of a KYC application: approved, denied or needsInformation. */
  readonly kyc = this.callWithBody('post', '/simulate/kyc');
}
