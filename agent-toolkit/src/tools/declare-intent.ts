import type { CustomerPaths, Operation, RequestBody } from '@cardrail/sdk';
import { type ToolHandler, writeOptions } from './tool-handler.js';

type IntentBody = RequestBody<Operation<CustomerPaths, '/intents', 'post'>>;

/** `POST /intents` on one of the agent's cards; the new intent is remembered as the agent's. */
export const declareIntent: ToolHandler = async (input, context) => {
  const intent = await context.client.intents.create(input as IntentBody, writeOptions(context));
  context.scope.checkIntent(intent);
  return intent;
};
