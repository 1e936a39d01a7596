import type { CustomerPaths, Operation, RequestBody } from '@cardrail/sdk';
import { type ToolHandler, writeOptions } from './tool-handler.js';

type IntentBody = RequestBody<Operation<CustomerPaths, '/intents', 'post'>>;

/**
 * `POST /intents` on one of the agent's cards; the new intent is remembered as the agent's. A call keyed by the
 * framework's call id may be a repeat, answered with the first answer as it was: an intent that waited for a person
 * then is read again, so that a decision made since is what the model sees.
 */
export const declareIntent: ToolHandler = async (input, context) => {
  const declared = await context.client.intents.create(input as IntentBody, writeOptions(context));
  context.scope.checkIntent(declared);
  if (context.call.idempotencyKey === undefined || declared.status !== 'pending_approval') return declared;
  return context.client.intents.retrieve(declared.id, context.call.signal ? { signal: context.call.signal } : {});
};
