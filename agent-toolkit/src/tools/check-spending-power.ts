import { cardOf, type ToolHandler } from './tool-handler.js';

/** `GET /cards/{cardId}/policy`: the merged policy with live remaining amounts, TTL and cooldown. */
export const checkSpendingPower: ToolHandler = (input, { client }) => client.cards.policy(cardOf(input));
