import type { CardrailApiClient } from './client.js';
import { ToolError } from './tool-error.js';

/** The part of an intent that says whose it is. */
export interface IntentOwner {
  id: string;
  cardId: string;
  agentId: string | null;
}

/**
 * What a toolkit may act on: the cards of one agent, or one of them. A card is checked once through the API (its
 * `agentId` must be the bound agent) and the answer kept, which is sound because no update changes a card's agent;
 * a refused card is then refused again without any request. An intent is its agent's when the API says so. Nothing
 * is sent for a card other than the bound one.
 */
export class AgentScope {
  readonly agentId: string;
  readonly cardId: string | undefined;
  readonly #client: CardrailApiClient;
  /** Card id -> whether it is the agent's. A failed lookup is forgotten, so the next call asks again. */
  readonly #cards = new Map<string, Promise<boolean>>();
  /** Intent id -> whether it is the agent's (and the bound card's). */
  readonly #intents = new Map<string, boolean>();

  constructor(client: CardrailApiClient, agentId: string, cardId: string | undefined) {
    this.#client = client;
    this.agentId = agentId;
    this.cardId = cardId;
  }

  /** Resolves when the card is the agent's (and the bound one); throws `out_of_scope` otherwise. */
  async assertCard(cardId: string): Promise<void> {
    if (this.cardId !== undefined && cardId !== this.cardId) {
      throw outOfScope(`This toolkit acts only on card ${this.cardId}; ${cardId} is refused.`, { cardId });
    }
    let owned = this.#cards.get(cardId);
    if (owned === undefined) {
      owned = this.#client.cards.retrieve(cardId).then((card) => card.agentId === this.agentId);
      this.#cards.set(cardId, owned);
      owned.catch(() => this.#cards.delete(cardId));
    }
    if (!(await owned)) {
      throw outOfScope(`Card ${cardId} is not a card of agent ${this.agentId}; this toolkit acts only for that agent.`, {
        cardId,
      });
    }
  }

  /** Refuses, without a request, an intent already known to be another agent's. */
  assertIntentNotForeign(intentId: string): void {
    if (this.#intents.get(intentId) === false) throw foreignIntent(intentId, this.agentId);
  }

  /** Resolves when the intent is the agent's, asking the API only for an intent not seen before. */
  async assertIntent(intentId: string): Promise<void> {
    this.assertIntentNotForeign(intentId);
    if (this.#intents.get(intentId) === true) return;
    this.checkIntent(await this.#client.intents.retrieve(intentId));
  }

  /** Records whose intent this is and throws `out_of_scope` when it is not the agent's (or not on the bound card). */
  checkIntent(intent: IntentOwner): void {
    const owned = intent.agentId === this.agentId && (this.cardId === undefined || intent.cardId === this.cardId);
    this.#intents.set(intent.id, owned);
    if (!owned) throw foreignIntent(intent.id, this.agentId);
  }
}

function outOfScope(message: string, details: Record<string, unknown>): ToolError {
  return new ToolError({ code: 'out_of_scope', message, details });
}

function foreignIntent(intentId: string, agentId: string): ToolError {
  return outOfScope(`Intent ${intentId} is not an intent of agent ${agentId} on the cards this toolkit acts on.`, { intentId });
}
