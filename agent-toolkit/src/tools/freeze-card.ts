import { cardOf, type ToolHandler } from './tool-handler.js';

/** `POST /cards/{cardId}/freeze`: the agent can always stop its own card. */
export const freezeCard: ToolHandler = (input, { client }) => client.cards.freeze(cardOf(input));
