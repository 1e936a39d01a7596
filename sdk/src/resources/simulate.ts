import { APIResource } from '../core/api-resource.js';
import type { APIPromise } from '../core/api-promise.js';
import type { RequestOptions } from '../core/client-options.js';
import type {
  Clock,
  ClockAdvanceParams,
  Deposit,
  Dispute,
  KycApplication,
  SimulateAuthorizeParams,
  SimulateDepositParams,
  SimulateDisputeParams,
  SimulateDisputeResolutionParams,
  SimulateKycParams,
  SimulateReverseParams,
  SimulateSettleParams,
  Transaction,
  UserDeposit,
  UserKycApplication,
  UserSimulateDepositParams,
  UserSimulateKycParams,
  UserTransaction,
  UserWithdrawal,
  Withdrawal,
} from '../generated/api-names.js';
import type { ByVariant, VariantPaths } from './variant-paths.js';

/** The test clock that drives expiries, webhook retries and idempotency-key lifetimes in test mode. */
export class SimulatedClock<Paths extends VariantPaths> extends APIResource<Paths> {
  /** The organization's test-clock time. */
  retrieve(options?: RequestOptions): APIPromise<Clock> {
    return this.send('get', '/simulate/clock', {}, options);
  }

  /**
   * Moves the test clock forward by `seconds`, running all work that became due (expiries, webhook retries) in time
   * order before it answers. It waits for the webhook attempts it starts at most 30 seconds on the local mock; past
   * that it answers with `pendingDeliveries`, the deliveries still without an outcome.
   */
  advance(params: ClockAdvanceParams, options?: RequestOptions): APIPromise<Clock> {
    return this.send('post', '/simulate/clock/advance', { body: params }, options);
  }
}

/** Test-mode helpers that make the service do what the card network, chain or KYC provider would. Live keys get 400 `test_mode_only`. */
export class Simulate<Paths extends VariantPaths> extends APIResource<Paths> {
  /** The organization's test clock. */
  readonly clock = new SimulatedClock(this.core);

  /** A card authorization at a merchant: the Transaction comes back `pending` or `declined`. */
  authorize(
    params: SimulateAuthorizeParams,
    options?: RequestOptions,
  ): APIPromise<ByVariant<Paths, Transaction, UserTransaction>> {
    return this.send('post', '/simulate/authorize', { body: params }, options);
  }

  /** A settlement of a transaction, as the card network would send it. */
  settle(
    transactionId: string,
    params?: SimulateSettleParams,
    options?: RequestOptions,
  ): APIPromise<ByVariant<Paths, Transaction, UserTransaction>> {
    return this.send('post', '/simulate/transactions/{transactionId}/settle', { path: { transactionId }, body: params }, options);
  }

  /** A reversal of a transaction (a void or a refund). */
  reverse(
    transactionId: string,
    params?: SimulateReverseParams,
    options?: RequestOptions,
  ): APIPromise<ByVariant<Paths, Transaction, UserTransaction>> {
    return this.send(
      'post',
      '/simulate/transactions/{transactionId}/reverse',
      { path: { transactionId }, body: params },
      options,
    );
  }

  /** A chargeback on a transaction. */
  dispute(transactionId: string, params?: SimulateDisputeParams, options?: RequestOptions): APIPromise<Dispute> {
    return this.send(
      'post',
      '/simulate/transactions/{transactionId}/dispute',
      { path: { transactionId }, body: params },
      options,
    );
  }

  /** The resolution of a dispute. */
  resolveDispute(disputeId: string, params: SimulateDisputeResolutionParams, options?: RequestOptions): APIPromise<Dispute> {
    return this.send('post', '/simulate/disputes/{disputeId}/resolve', { path: { disputeId }, body: params }, options);
  }

  /** An on-chain deposit to a customer (user): raises `available`. */
  deposit(
    params: ByVariant<Paths, SimulateDepositParams, UserSimulateDepositParams>,
    options?: RequestOptions,
  ): APIPromise<ByVariant<Paths, Deposit, UserDeposit>> {
    return this.send('post', '/simulate/deposits', { body: params }, options);
  }

  /** The on-chain confirmation of a withdrawal. */
  confirmWithdrawal(withdrawalId: string, options?: RequestOptions): APIPromise<ByVariant<Paths, Withdrawal, UserWithdrawal>> {
    return this.send('post', '/simulate/withdrawals/{withdrawalId}/confirm', { path: { withdrawalId } }, options);
  }

  /** The failure of a withdrawal on chain. */
  failWithdrawal(withdrawalId: string, options?: RequestOptions): APIPromise<ByVariant<Paths, Withdrawal, UserWithdrawal>> {
    return this.send('post', '/simulate/withdrawals/{withdrawalId}/fail', { path: { withdrawalId } }, options);
  }

  /** The outcome of a KYC application: approved, denied or needsInformation. */
  kyc(
    params: ByVariant<Paths, SimulateKycParams, UserSimulateKycParams>,
    options?: RequestOptions,
  ): APIPromise<ByVariant<Paths, KycApplication, UserKycApplication>> {
    return this.send('post', '/simulate/kyc', { body: params }, options);
  }
}
