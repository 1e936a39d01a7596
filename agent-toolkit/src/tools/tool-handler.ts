import type { CardrailApiClient } from '../client.js';
import type { CardCredentials, CredentialExposure } from '../credential-exposure.js';
import type { AgentScope } from '../scope.js';
import type { ToolInput } from '../tool-input.js';

/** What a tool's handler works with. The toolkit has checked the input's shape and the card's scope before. */
export interface ToolContext {
  client: CardrailApiClient;
  scope: AgentScope;
  credentialExposure: CredentialExposure;
  onCredentials: ((credentials: CardCredentials) => void | Promise<void>) | undefined;
}

/** Calls the tool's operation through the SDK and returns what the model gets back. */
export type ToolHandler = (input: ToolInput, context: ToolContext) => Promise<unknown>;

/** The card of a call that acts on one: the toolkit has already resolved (named or bound) and checked it. */
export function cardOf(input: ToolInput): string {
  return input.cardId as string;
}
