import { cardOf, type ToolHandler, writeOptions } from './tool-handler.js';

/** `POST /cards/{cardId}/freeze`: the agent can always stop its own card. */
export const freezeCard: ToolHandler = (input, context) => context.client.cards.freeze(cardOf(input), writeOptions(context));
