import type { CustomerPaths, Operation, ResponseBody } from '@cardrail/sdk';

/** The card credentials the API returns (`POST /cards/{cardId}/credentials`). */
export type CardCredentials = ResponseBody<Operation<CustomerPaths, '/cards/{cardId}/credentials', 'post'>>;

/**
 * What `get_card_credentials` hands the model. `masked` (the default): the last 4 digits and the expiry, no number
 * and no CVC. `full`: everything the API returned; choose it only when the model itself must type the number.
 */
export type CredentialExposure = 'masked' | 'full';

export const CREDENTIAL_EXPOSURES: readonly CredentialExposure[] = ['masked', 'full'];

/** Credentials without the number and the CVC: what the model sees by default. */
export type MaskedCredentials = Omit<CardCredentials, 'pan' | 'cvc'> & {
  /** The last 4 digits of the card number. */
  last4: string;
  /** `'masked'`. */
  exposure: 'masked';
};
/** Everything the API returned, number and CVC included (`credentialExposure: 'full'`). */
export type FullCredentials = CardCredentials & {
  /** `'full'`. */
  exposure: 'full';
};

export function exposeCredentials(
  credentials: CardCredentials,
  exposure: CredentialExposure,
): MaskedCredentials | FullCredentials {
  if (exposure === 'full') return { ...credentials, exposure: 'full' };
  const { pan, cvc: _cvc, ...rest } = credentials;
  return { ...rest, last4: pan.slice(-4), exposure: 'masked' };
}
