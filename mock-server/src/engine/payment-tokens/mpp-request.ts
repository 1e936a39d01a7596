import { checkEncryptionJwk, isKeyProblem, type RsaEncryptionJwk } from './encryption-key.js';
import { invalidPaymentRequest } from './token-terms.js';

/** The card charge a challenge's `request` asks for (draft-payment-intent-charge-00, draft-card-charge-00). */
export interface CardChargeRequest {
  amount: number;
  currency: string;
  recipient: string | null;
  description: string | null;
  merchantName: string;
  encryptionJwk: RsaEncryptionJwk;
}

/** Amounts are base units as a string of digits, no sign, no leading zero; at most the API's largest amount. */
const AMOUNT = /^[1-9][0-9]{0,11}$/;
const MAX_AMOUNT = 100_000_000_000;
/** The network of every token Cardrail issues. */
export const TOKEN_NETWORK = 'visa';

/**
 * Checks the decoded `request` of a card charge challenge: `amount` a string of base units, `currency` lowercase
 * ISO 4217, `methodDetails` with `acceptedNetworks` that include Visa, `merchantName`, and the merchant's key in
 * `encryptionJwk` (a `jwksUri` is refused: keys are never fetched). `field` is where the challenge is in the body.
 */
export function readCardChargeRequest(request: unknown, field: string): CardChargeRequest {
  const fail = (parameter: string, reason: string) => invalidPaymentRequest(field, `request.${parameter}`, reason);
  if (!isObject(request)) throw invalidPaymentRequest(field, 'request', 'must be a JSON object');
  const amount = request.amount;
  if (typeof amount !== 'string' || !AMOUNT.test(amount) || Number(amount) > MAX_AMOUNT)
    throw fail(
      'amount',
      `must be a string of base units between 1 and ${MAX_AMOUNT}, such as "2500" (got ${JSON.stringify(amount)})`,
    );
  const currency = request.currency;
  if (typeof currency !== 'string' || !/^[a-z]{3}$/.test(currency))
    throw fail('currency', `must be a lowercase ISO 4217 code such as "usd" (got ${JSON.stringify(currency)})`);
  const recipient = optionalText(request.recipient, 256, () => fail('recipient', 'must be a string of 1 to 256 characters'));
  const description = optionalText(request.description, 500, () =>
    fail('description', 'must be a string of at most 500 characters'),
  );
  const details = request.methodDetails;
  if (!isObject(details)) throw fail('methodDetails', 'is required and must be an object');
  const networks = details.acceptedNetworks;
  if (!Array.isArray(networks) || networks.length === 0 || !networks.every((network) => typeof network === 'string'))
    throw fail('methodDetails.acceptedNetworks', 'must be a non-empty array of network names');
  if (!networks.includes(TOKEN_NETWORK))
    throw fail(
      'methodDetails.acceptedNetworks',
      `does not accept "${TOKEN_NETWORK}", the network of Cardrail's tokens (accepted: ${networks.join(', ')})`,
    );
  const merchantName = details.merchantName;
  if (typeof merchantName !== 'string' || merchantName.length === 0 || merchantName.length > 200)
    throw fail('methodDetails.merchantName', 'is required: a string of 1 to 200 characters');
  if (details.version !== undefined && details.version !== 1) throw fail('methodDetails.version', 'only version 1 is answered');
  if (details.jwksUri !== undefined)
    throw fail('methodDetails.jwksUri', 'names a key to fetch; keys are never fetched: the challenge must carry encryptionJwk');
  if (details.kid !== undefined) throw fail('methodDetails.kid', 'must not be present with encryptionJwk');
  if (details.encryptionJwk === undefined) throw fail('methodDetails.encryptionJwk', 'is required');
  const key = checkEncryptionJwk(details.encryptionJwk);
  if (isKeyProblem(key)) throw fail(`methodDetails.encryptionJwk${key.member ? `.${key.member}` : ''}`, key.reason);
  return { amount: Number(amount), currency, recipient, description, merchantName, encryptionJwk: key };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function optionalText(value: unknown, maxLength: number, refuse: () => Error): string | null {
  if (value === undefined) return null;
  if (typeof value !== 'string' || value.length === 0 || value.length > maxLength) throw refuse();
  return value;
}
