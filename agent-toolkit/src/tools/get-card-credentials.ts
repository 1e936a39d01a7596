import type { CustomerPaths, Operation, RequestBody } from '@cardrail/sdk';
import { exposeCredentials } from '../credential-exposure.js';
import { readId } from '../tool-input.js';
import { cardOf, type ToolHandler, writeOptions } from './tool-handler.js';

type CredentialsBody = RequestBody<Operation<CustomerPaths, '/cards/{cardId}/credentials', 'post'>>;

/**
 * `POST /cards/{cardId}/credentials`: the API enforces `requireIntent`, approval and the card's status, records the
 * access (`credential.accessed`) and opens the attestation window. The developer's `onCredentials` gets the full
 * credentials; the model gets them as the exposure mode allows.
 */
export const getCardCredentials: ToolHandler = async (input, context) => {
  const intentId = readId(input, 'intentId');
  if (intentId !== undefined) await context.scope.assertIntent(intentId);
  const { cardId: _cardId, ...body } = input;
  const credentials = await context.client.cards.credentials(cardOf(input), body as CredentialsBody, writeOptions(context));
  await context.onCredentials?.(credentials);
  return exposeCredentials(credentials, context.credentialExposure);
};
