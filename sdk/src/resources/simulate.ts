import type { APIPromise } from '../core/api-promise.js';
import { APIResource } from '../core/api-resource.js';
import type { ClientCore } from '../core/client-core.js';
import type { RequestOptions } from '../core/client-options.js';
import type { BodyArgs, Operation as Op, ResponseBody } from '../core/operation-types.js';
import type { VariantPaths } from './variant-paths.js';

/** The test clock that drives expiries, webhook retries and idempotency-key lifetimes in test mode. */
export class SimulatedClock<Paths extends VariantPaths> extends APIResource<Paths> {
  /** The organization's test-clock time. */
  retrieve(options?: RequestOptions): APIPromise<ResponseBody<Op<Paths, '/simulate/clock', 'get'>>> {
    return this.request('get', '/simulate/clock', {}, options);
  }

  /**
   * Moves the test clock forward by `seconds`, running all work that became due (expiries, webhook retries) in time
   * order before it answers.
   */
  advance(
    ...[body, options]: BodyArgs<Op<Paths, '/simulate/clock/advance', 'post'>>
  ): APIPromise<ResponseBody<Op<Paths, '/simulate/clock/advance', 'post'>>> {
    return this.request('post', '/simulate/clock/advance', { body }, options);
  }
}

/** Test-mode helpers that make the service do what the card network, chain or KYC provider would. Live keys get 400 `test_mode_only`. */
export class Simulate<Paths extends VariantPaths> extends APIResource<Paths> {
  /** The organization's test clock. */
  readonly clock: SimulatedClock<Paths>;

  constructor(core: ClientCore<Paths>) {
    super(core);
    this.clock = new SimulatedClock(core);
  }

  /** A card authorization at a merchant: the Transaction comes back `pending` or `declined`. */
  authorize(
    ...[body, options]: BodyArgs<Op<Paths, '/simulate/authorize', 'post'>>
  ): APIPromise<ResponseBody<Op<Paths, '/simulate/authorize', 'post'>>> {
    return this.request('post', '/simulate/authorize', { body }, options);
  }

  /** A settlement of a transaction, as the card network would send it. */
  settle(
    transactionId: string,
    ...[body, options]: BodyArgs<Op<Paths, '/simulate/transactions/{transactionId}/settle', 'post'>>
  ): APIPromise<ResponseBody<Op<Paths, '/simulate/transactions/{transactionId}/settle', 'post'>>> {
    return this.request('post', '/simulate/transactions/{transactionId}/settle', { path: { transactionId }, body }, options);
  }

  /** A reversal of a transaction (a void or a refund). */
  reverse(
    transactionId: string,
    ...[body, options]: BodyArgs<Op<Paths, '/simulate/transactions/{transactionId}/reverse', 'post'>>
  ): APIPromise<ResponseBody<Op<Paths, '/simulate/transactions/{transactionId}/reverse', 'post'>>> {
    return this.request('post', '/simulate/transactions/{transactionId}/reverse', { path: { transactionId }, body }, options);
  }

  /** A chargeback on a transaction. */
  dispute(
    transactionId: string,
    ...[body, options]: BodyArgs<Op<Paths, '/simulate/transactions/{transactionId}/dispute', 'post'>>
  ): APIPromise<ResponseBody<Op<Paths, '/simulate/transactions/{transactionId}/dispute', 'post'>>> {
    return this.request('post', '/simulate/transactions/{transactionId}/dispute', { path: { transactionId }, body }, options);
  }

  /** The resolution of a dispute. */
  resolveDispute(
    disputeId: string,
    ...[body, options]: BodyArgs<Op<Paths, '/simulate/disputes/{disputeId}/resolve', 'post'>>
  ): APIPromise<ResponseBody<Op<Paths, '/simulate/disputes/{disputeId}/resolve', 'post'>>> {
    return this.request('post', '/simulate/disputes/{disputeId}/resolve', { path: { disputeId }, body }, options);
  }

  /** An on-chain deposit to a customer (user): raises `available`. */
  deposit(
    ...[body, options]: BodyArgs<Op<Paths, '/simulate/deposits', 'post'>>
  ): APIPromise<ResponseBody<Op<Paths, '/simulate/deposits', 'post'>>> {
    return this.request('post', '/simulate/deposits', { body }, options);
  }

  /** The on-chain confirmation of a withdrawal. */
  confirmWithdrawal(
    withdrawalId: string,
    options?: RequestOptions,
  ): APIPromise<ResponseBody<Op<Paths, '/simulate/withdrawals/{withdrawalId}/confirm', 'post'>>> {
    return this.request('post', '/simulate/withdrawals/{withdrawalId}/confirm', { path: { withdrawalId } }, options);
  }

  /** The failure of a withdrawal on chain. */
  failWithdrawal(
    withdrawalId: string,
    options?: RequestOptions,
  ): APIPromise<ResponseBody<Op<Paths, '/simulate/withdrawals/{withdrawalId}/fail', 'post'>>> {
    return this.request('post', '/simulate/withdrawals/{withdrawalId}/fail', { path: { withdrawalId } }, options);
  }

  /** The outcome of a KYC application: approved, denied or needsInformation. */
  kyc(
    ...[body, options]: BodyArgs<Op<Paths, '/simulate/kyc', 'post'>>
  ): APIPromise<ResponseBody<Op<Paths, '/simulate/kyc', 'post'>>> {
    return this.request('post', '/simulate/kyc', { body }, options);
  }
}
