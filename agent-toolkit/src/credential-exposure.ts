import type { CustomerPaths, Operation, ResponseBody } from '@cardrail/sdk';
import type { JsonSchema, ToolOutputSchema } from './generated-tool.js';

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

/**
 * The output schema of `get_card_credentials` for an exposure mode, from the spec's schema of the credentials: masked
 * drops `pan` and `cvc` and adds `last4`; both add `exposure`, the mode.
 */
export function credentialsOutputSchema(spec: ToolOutputSchema, exposure: CredentialExposure): ToolOutputSchema {
  const schema = structuredClone(spec);
  const properties = { ...(schema.properties as Record<string, JsonSchema>) };
  let required = [...((schema.required as string[] | undefined) ?? [])];
  if (exposure === 'masked') {
    delete properties.pan;
    delete properties.cvc;
    required = required.filter((field) => field !== 'pan' && field !== 'cvc');
    properties.last4 = { type: 'string', pattern: '^[0-9]{4}$', description: 'The last 4 digits of the card number.' };
    required.push('last4');
  }
  properties.exposure = {
    const: exposure,
    description: `What the toolkit shows of the credentials: \`${exposure}\` (${exposure === 'masked' ? 'no number and no CVC' : 'everything the API returned'}).`,
  };
  required.push('exposure');
  return { ...schema, properties, required };
}
