import { APIResource } from '../core/api-resource.js';
import type { APIPromise } from '../core/api-promise.js';
import type { RequestOptions } from '../core/client-options.js';
import type { ReceiptKeys } from '../generated/api-names.js';
import {
  verifyPaymentReceipt,
  type VerifiedPaymentReceipt,
  type VerifyPaymentReceiptOptions,
} from '../mandates/payment-receipt.js';
import type { VariantPaths } from './variant-paths.js';

/**
 * AP2 mandates at the issuer: the receipts the service signs for spends made under a mandate, and the keys they verify
 * with. An intent's open mandate claims are `intents.mandate`; a customer's trusted issuers, `customers.mandateIssuers`.
 */
export class Mandates<Paths extends VariantPaths> extends APIResource<Paths> {
  /** The public keys the service signs payment receipts with, the current first. */
  receiptKeys(options?: RequestOptions): APIPromise<ReceiptKeys> {
    return this.send('get', '/mandate-receipts/keys', {}, options);
  }

  /** A new receipt signing key; the replaced ones stay published, so earlier receipts still verify. */
  rotateReceiptKeys(options?: RequestOptions): APIPromise<ReceiptKeys> {
    return this.send('post', '/mandate-receipts/keys/rotate', {}, options);
  }

  /** Verifies a receipt (`transaction.mandate.receipt`) against the keys `receiptKeys` answers now. */
  async verifyReceipt(
    receipt: string,
    verifyOptions?: VerifyPaymentReceiptOptions,
    options?: RequestOptions,
  ): Promise<VerifiedPaymentReceipt> {
    return verifyPaymentReceipt(receipt, await this.receiptKeys(options), verifyOptions);
  }
}
