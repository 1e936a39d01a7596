import type { ClientOptions } from '@cardrail/sdk';
import { API_VARIANTS, type ApiVariant } from './api-variant.js';
import { createClient, variantOf, type CardrailApiClient } from './client.js';
import { CREDENTIAL_EXPOSURES, type CardCredentials, type CredentialExposure } from './credential-exposure.js';
import type { GeneratedTool, ToolInputSchema } from './generated-tool.js';
import { customerTools, TOOL_NAMES, userTools, type ToolName } from './generated/tool-schemas.js';
import { AgentScope } from './scope.js';
import { ToolError, toToolError, type ToolErrorBody } from './tool-error.js';
import { readId, readToolInput } from './tool-input.js';
import { toolHandlers } from './tools/index.js';
import type { ToolContext } from './tools/tool-handler.js';

/** Options of `createCardrailToolkit`: the agent (and card) the tools act for, and how they reach the API. */
export interface CardrailToolkitOptions {
  /** The agent every tool acts for; cards and intents of other agents are refused. */
  agentId: string;
  /** Binds the toolkit to this one card (it must be the agent's): `cardId` becomes optional, other cards are refused. */
  cardId?: string | undefined;
  /** `sk_test_...` or `sk_live_...`; defaults to the CARDRAIL_API_KEY environment variable, as in the SDK. */
  apiKey?: string | undefined;
  /** The API base URL; the local mock is `http://127.0.0.1:4010/v1`. Defaults to production. */
  baseUrl?: string | undefined;
  /** `customer` (default): `Cardrail`, Bearer key. `user`: `CardrailUsers`, `Api-Key` header. */
  variant?: ApiVariant | undefined;
  /** Other SDK client options (retries, timeout, fetch, logger). */
  clientOptions?: Omit<ClientOptions, 'apiKey' | 'baseUrl'> | undefined;
  /** An SDK client to use instead of `apiKey`, `baseUrl`, `variant` and `clientOptions`. */
  client?: CardrailApiClient | undefined;
  /** What the model sees of card credentials: `masked` (default; last 4 and expiry) or `full` (number and CVC). */
  credentialExposure?: CredentialExposure | undefined;
  /**
   * Gets the full credentials of every successful `get_card_credentials` call, whatever the exposure mode: for code
   * that completes a payment without the model ever seeing the number. A throw fails the tool call.
   */
  onCredentials?: ((credentials: CardCredentials) => void | Promise<void>) | undefined;
}

/** One tool as frameworks see it: name, description and input JSON Schema (draft 2020-12). */
export interface CardrailTool {
  /** The tool's name, e.g. `check_spending_power`. */
  name: ToolName;
  /** What the tool does and when to call it, for the model. */
  description: string;
  /** The input the tool takes, as JSON Schema (draft 2020-12). */
  inputSchema: ToolInputSchema;
  /** Whether the tool changes nothing. */
  readOnly: boolean;
}

/** The outcome of a tool call: what the API returned, as the model should see it, or the error. */
export type ToolResult =
  | {
      /** The call succeeded. */
      ok: true;
      /** What the API returned, as the model should see it. */
      data: unknown;
    }
  | {
      /** The call failed. */
      ok: false;
      /** Why, as the model should be told. */
      error: ToolErrorBody;
    };

const GENERATED: Record<ApiVariant, Record<ToolName, GeneratedTool>> = { customer: customerTools, user: userTools };

function configurationError(message: string): TypeError {
  return new TypeError(`@cardrail/agent-toolkit: ${message}`);
}

function requireId(value: unknown, name: string): string {
  if (typeof value !== 'string' || value.trim() === '') throw configurationError(`${name} must be a non-empty id string.`);
  return value;
}

/**
 * The tool as this toolkit offers it: with a bound card, `cardId` is no longer required and says which card it
 * defaults to. The generated schema is copied, so nothing a caller does to it reaches another toolkit.
 */
function offeredTool(generated: GeneratedTool, boundCardId: string | undefined): CardrailTool {
  const inputSchema = structuredClone(generated.inputSchema);
  const cardField = inputSchema.properties.cardId;
  if (boundCardId !== undefined && cardField !== undefined) {
    const description = typeof cardField.description === 'string' ? `${cardField.description} ` : '';
    cardField.description = `${description}Optional: this toolkit acts only on card ${boundCardId}, the default.`;
    const required = (inputSchema.required ?? []).filter((field) => field !== 'cardId');
    if (required.length > 0) inputSchema.required = required;
    else delete inputSchema.required;
  }
  return { name: generated.name as ToolName, description: generated.description, inputSchema, readOnly: generated.readOnly };
}

/**
 * Cardrail's tools for a model, bound to one API key and one agent (optionally one card). Every tool calls the API
 * through the SDK; a call naming another agent's card or intent is refused with `out_of_scope` before the
 * operation is sent. Frameworks get the tools through the adapters (`./mcp`, `./ai-sdk`, `toOpenAITools`).
 */
export class CardrailToolkit {
  /** The agent every tool acts for. */
  readonly agentId: string;
  /** The one card the toolkit is bound to, if any. */
  readonly cardId: string | undefined;
  /** The API variant the toolkit calls: `customer` (Bearer key) or `user` (`Api-Key`). */
  readonly variant: ApiVariant;
  /** The seven tools, in a stable order. */
  readonly tools: readonly CardrailTool[];
  readonly #byName: ReadonlyMap<string, { generated: GeneratedTool; offered: CardrailTool }>;
  readonly #context: ToolContext;

  constructor(options: CardrailToolkitOptions) {
    this.agentId = requireId(options.agentId, 'agentId');
    this.cardId = options.cardId === undefined ? undefined : requireId(options.cardId, 'cardId');
    const exposure = options.credentialExposure ?? 'masked';
    if (!CREDENTIAL_EXPOSURES.includes(exposure)) {
      throw configurationError(`credentialExposure must be ${CREDENTIAL_EXPOSURES.join(' or ')}, got ${String(exposure)}.`);
    }
    if (options.client !== undefined) {
      const ignored = (['apiKey', 'baseUrl', 'variant', 'clientOptions'] as const).filter((name) => options[name] !== undefined);
      if (ignored.length > 0)
        throw configurationError(`pass either client or ${ignored.join(', ')}: the client already has its own.`);
    }
    const client = options.client ?? this.#createClient(options);
    this.variant = variantOf(client);
    const generated = GENERATED[this.variant];
    const entries = TOOL_NAMES.map(
      (name) => [name, { generated: generated[name], offered: offeredTool(generated[name], this.cardId) }] as const,
    );
    this.#byName = new Map(entries);
    this.tools = entries.map(([, tool]) => tool.offered);
    this.#context = {
      client,
      scope: new AgentScope(client, this.agentId, this.cardId),
      credentialExposure: exposure,
      onCredentials: options.onCredentials,
    };
  }

  #createClient(options: CardrailToolkitOptions): CardrailApiClient {
    const variant = options.variant ?? 'customer';
    if (!API_VARIANTS.includes(variant))
      throw configurationError(`variant must be ${API_VARIANTS.join(' or ')}, got ${String(variant)}.`);
    return createClient(variant, { ...options.clientOptions, apiKey: options.apiKey, baseUrl: options.baseUrl });
  }

  /** Runs a tool. Never throws: a failure is `{ ok: false, error }` with the API's code and message, or the toolkit's. */
  async call(name: string, input?: unknown): Promise<ToolResult> {
    try {
      return { ok: true, data: await this.run(name, input) };
    } catch (error) {
      return { ok: false, error: toToolError(error).toJSON() };
    }
  }

  /** Runs a tool and returns what the model should see; throws a `ToolError` when the call fails. */
  async run(name: string, input?: unknown): Promise<unknown> {
    try {
      const tool = this.#byName.get(name);
      if (tool === undefined) {
        throw new ToolError({
          code: 'unknown_tool',
          message: `There is no tool ${name}; the tools are ${TOOL_NAMES.join(', ')}.`,
        });
      }
      const checked = readToolInput(tool.generated, input, tool.offered.inputSchema.required ?? []);
      if ('cardId' in tool.generated.inputSchema.properties) {
        const cardId = readId(checked, 'cardId') ?? this.cardId;
        if (cardId !== undefined) {
          await this.#context.scope.assertCard(cardId);
          checked.cardId = cardId;
        }
      }
      return await toolHandlers[tool.offered.name](checked, this.#context);
    } catch (error) {
      throw toToolError(error);
    }
  }
}

/**
 * A toolkit bound to one key and one agent (and optionally one card).
 *
 * @example
 * ```ts
 * const toolkit = createCardrailToolkit({ agentId: 'agt_...', baseUrl: 'http://127.0.0.1:4010/v1' });
 * const result = await toolkit.call('check_spending_power', { cardId: 'card_...' }); // { ok: true, data } or { ok: false, error }
 * ```
 */
export function createCardrailToolkit(options: CardrailToolkitOptions): CardrailToolkit {
  return new CardrailToolkit(options);
}
