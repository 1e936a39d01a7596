import type { Tenant } from '../../core/tenant.js';
import { type MppCredential, mppCredentialOf } from './mpp-credential.js';
import { cryptogramOf, paymentAccountReference, TOKEN_ECI } from './network-token.js';
import type { PaymentTokenRecord } from './token-record.js';

/** An ACP token in the clear (`NetworkToken`), for the agent's `delegate_payment` request. */
interface NetworkTokenView {
  number: string;
  expMonth: string;
  expYear: string;
  cryptogram: string;
  eci: string;
  paymentAccountReference: string;
}

/** A token as an operation answers it: the record, and while it is active, what pays with it. */
export interface PaymentTokenView {
  token: PaymentTokenRecord;
  networkToken: NetworkTokenView | null;
  mppCredential: MppCredential | null;
}

/**
 * The token with its credential: an ACP token's number and cryptogram in the clear, an MPP token's credential
 * encrypted to the merchant's key (a new JWE each time it is read: the same token and cryptogram inside). A token
 * that is not `active` shows neither.
 */
export async function viewOf(tenant: Tenant, token: PaymentTokenRecord): Promise<PaymentTokenView> {
  if (token.status !== 'active' || token.number === null) return { token, networkToken: null, mppCredential: null };
  const issued = { number: token.number, cryptogram: cryptogramOf(tenant, token) };
  if (token.protocol === 'mpp') return { token, networkToken: null, mppCredential: await mppCredentialOf(token, issued) };
  return {
    token,
    networkToken: {
      ...issued,
      expMonth: token.expMonth,
      expYear: token.expYear,
      eci: TOKEN_ECI,
      paymentAccountReference: paymentAccountReference(token.cardId),
    },
    mppCredential: null,
  };
}
