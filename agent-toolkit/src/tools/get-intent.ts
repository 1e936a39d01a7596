import { readId } from '../tool-input.js';
import type { ToolHandler } from './tool-handler.js';

/**
 * `GET /intents/{intentId}`, answered only for the agent's own intents. An intent is known to be the agent's only once
 * it has been read, so another agent's is refused after that read (its content is not returned) and, from then on,
 * without any request.
 */
export const getIntent: ToolHandler = async (input, { client, scope }) => {
  const intentId = readId(input, 'intentId') as string;
  scope.assertIntentNotForeign(intentId);
  const intent = await client.intents.retrieve(intentId);
  scope.checkIntent(intent);
  return intent;
};
