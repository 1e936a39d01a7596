import type { MandateForPayment } from '@cardrail/sdk';
import type { CardrailApiClient } from '../client.js';
import type { CardCredentials, CredentialExposure } from '../credential-exposure.js';
import type { ToolInputSchema } from '../generated-tool.js';
import type { MerchantGate } from '../merchant-access.js';
import type { AgentScope } from '../scope.js';
import type { ToolInput } from '../tool-input.js';

/** What a long tool call reports while it runs (a wait for a person's decision). */
export interface ToolProgress {
  /** What is happening, for a person or a model. */
  message: string;
  /** How long the call has run, in milliseconds. */
  elapsedMs: number;
  /** How long it may run at most, in milliseconds. */
  totalMs: number;
}

/** Options of one tool call: how the framework that made it follows and bounds it. */
export interface ToolCallOptions {
  /** Aborting ends the call at once (a wait included) with the tool error `request_aborted`. */
  signal?: AbortSignal | undefined;
  /** Receives progress while a long call runs (wait_for_approval reports after each read). */
  onProgress?: ((progress: ToolProgress) => void) | undefined;
  /**
   * The framework's id of this tool call (an AI SDK `toolCallId`, an OpenAI `call_id`). A call that changes
   * something is sent with an idempotency key derived from it and the input: the same call repeated (a retry, a
   * run resumed after an approval) is carried out once and answered the same.
   */
  callId?: string | undefined;
}

/** What a tool's handler works with. The toolkit has checked the input's shape and the card's scope before. */
export interface ToolContext {
  client: CardrailApiClient;
  scope: AgentScope;
  credentialExposure: CredentialExposure;
  onCredentials: ((credentials: CardCredentials) => void | Promise<void>) | undefined;
  /** The origins `pay_merchant` may reach, and how. */
  merchants: MerchantGate;
  /** Makes the AP2 mandate presentation a payment token is minted under, when the agent has one. */
  agentMandate: MandateForPayment | undefined;
  /** The tool's input schema as offered (defaults and limits of the toolkit's own fields are read from it). */
  inputSchema: ToolInputSchema;
  /** The options of this call, with the idempotency key a call that changes something is sent with. */
  call: ToolCallOptions & { idempotencyKey: string | undefined };
}

/** Calls the tool's operation through the SDK and returns what the model gets back. */
export type ToolHandler = (input: ToolInput, context: ToolContext) => Promise<unknown>;

/** The card of a call that acts on one: the toolkit has already resolved (named or bound) and checked it. */
export function cardOf(input: ToolInput): string {
  return input.cardId as string;
}

/** The per-request options of a call that changes something: its idempotency key and the caller's signal. */
export function writeOptions(context: ToolContext): { idempotencyKey?: string; signal?: AbortSignal } {
  return {
    ...(context.call.idempotencyKey === undefined ? {} : { idempotencyKey: context.call.idempotencyKey }),
    ...(context.call.signal === undefined ? {} : { signal: context.call.signal }),
  };
}
