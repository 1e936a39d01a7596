import type { ClientOptions } from '@cardrail/sdk';
import { API_VARIANTS, type ApiVariant } from './api-variant.js';
import { createClient, variantOf, type CardrailApiClient } from './client.js';
import {
  CREDENTIAL_EXPOSURES,
  type CardCredentials,
  type CredentialExposure,
  credentialsOutputSchema,
} from './credential-exposure.js';
import type { GeneratedTool, ToolInputSchema, ToolOutputSchema } from './generated-tool.js';
import { customerTools, TOOL_NAMES, userTools, type ToolName } from './generated/tool-schemas.js';
import { callIdempotencyKey } from './idempotency.js';
import { inputValidator } from './input-validation.js';
import { MerchantGate, type PaymentOptions } from './merchant-access.js';
import { nextStep } from './next-step.js';
import { AgentScope } from './scope.js';
import { ToolError, toToolError, type ToolErrorBody } from './tool-error.js';
import { readId, readToolInput } from './tool-input.js';
import { toolHandlers } from './tools/index.js';
import type { ToolCallOptions, ToolContext } from './tools/tool-handler.js';

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
  /**
   * What `pay_merchant` may reach: `merchants` lists every origin (merchants, ACP sellers with their `name`, ACP PSPs
   * with their `pspApiKey`); any other is refused before anything is sent. None by default. `agentMandate` makes
   * the AP2 mandate each token is minted under, when the agent has one.
   */
  payments?: PaymentOptions | undefined;
}

/** One tool as frameworks see it: name, title, description, and input and output JSON Schemas (draft 2020-12). */
export interface CardrailTool {
  /** The tool's name, e.g. `check_spending_power`. */
  name: ToolName;
  /** The tool's name as a person reads it, e.g. `Check spending power`. */
  title: string;
  /** What the tool does and when to call it, for the model. */
  description: string;
  /** The input the tool takes, as JSON Schema (draft 2020-12). */
  inputSchema: ToolInputSchema;
  /** What the tool returns when it succeeds (the API's answer, as the model sees it), as JSON Schema. */
  outputSchema: ToolOutputSchema;
  /** Whether the tool changes nothing (MCP's `readOnlyHint`). */
  readOnly: boolean;
  /** Whether it may take away something the agent cannot give back, e.g. freeze a card (MCP's `destructiveHint`). */
  destructive: boolean;
  /** Whether calling it again with the same input changes nothing more (MCP's `idempotentHint`). */
  idempotent: boolean;
  /** Whether it reaches beyond the organization's own records at Cardrail (MCP's `openWorldHint`; no tool does). */
  openWorld: boolean;
  /**
   * Whether its answer may be something waiting for a person's decision (an intent `pending_approval`): an MCP server
   * then asks the client to show the person the approval page, or follows the decision as a task.
   */
  mayNeedPerson: boolean;
}

/** The outcome of a tool call: what the API returned, as the model should see it, or the error. */
export type ToolResult =
  | {
      /** The call succeeded. */
      ok: true;
      /** What the API returned, as the model should see it. */
      data: unknown;
      /**
       * What the model should do next, in a sentence, where the answer alone leaves it to guess (an intent waiting
       * for a person, approved, rejected, expired); absent otherwise.
       */
      nextStep?: string;
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
 * defaults to; the credentials' output is what the exposure mode shows. The generated schemas are copied, so
 * nothing a caller does to them reaches another toolkit.
 */
function offeredTool(generated: GeneratedTool, boundCardId: string | undefined, exposure: CredentialExposure): CardrailTool {
  const inputSchema = structuredClone(generated.inputSchema);
  const outputSchema =
    generated.name === 'get_card_credentials'
      ? credentialsOutputSchema(generated.outputSchema, exposure)
      : structuredClone(generated.outputSchema);
  const cardField = inputSchema.properties.cardId;
  if (boundCardId !== undefined && cardField !== undefined) {
    const description = typeof cardField.description === 'string' ? `${cardField.description} ` : '';
    cardField.description = `${description}Optional: this toolkit acts only on card ${boundCardId}, the default.`;
    const required = (inputSchema.required ?? []).filter((field) => field !== 'cardId');
    if (required.length > 0) inputSchema.required = required;
    else delete inputSchema.required;
  }
  return {
    name: generated.name as ToolName,
    title: generated.title,
    description: generated.description,
    inputSchema,
    outputSchema,
    readOnly: generated.readOnly,
    destructive: generated.destructive,
    idempotent: generated.idempotent,
    openWorld: generated.openWorld,
    mayNeedPerson: generated.mayNeedPerson,
  };
}

/** A tool of this toolkit with what running it needs. */
interface BoundTool {
  generated: GeneratedTool;
  offered: CardrailTool;
  validate: (input: unknown) => void;
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
  /** The nine tools, in a stable order. */
  readonly tools: readonly CardrailTool[];
  /** The SDK client the tools call (the one passed in, or the one built from the options). */
  readonly client: CardrailApiClient;
  readonly #byName: ReadonlyMap<string, BoundTool>;
  readonly #context: Omit<ToolContext, 'inputSchema' | 'call'>;

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
    this.client = client;
    this.variant = variantOf(client);
    const generated = GENERATED[this.variant];
    const entries = TOOL_NAMES.map((name) => {
      const offered = offeredTool(generated[name], this.cardId, exposure);
      return [name, { generated: generated[name], offered, validate: inputValidator(name, offered.inputSchema) }] as const;
    });
    this.#byName = new Map(entries);
    this.tools = entries.map(([, tool]) => tool.offered);
    this.#context = {
      client,
      scope: new AgentScope(client, this.agentId, this.cardId),
      credentialExposure: exposure,
      onCredentials: options.onCredentials,
      merchants: new MerchantGate(options.payments ?? {}),
      agentMandate: options.payments?.agentMandate,
    };
  }

  #createClient(options: CardrailToolkitOptions): CardrailApiClient {
    const variant = options.variant ?? 'customer';
    if (!API_VARIANTS.includes(variant))
      throw configurationError(`variant must be ${API_VARIANTS.join(' or ')}, got ${String(variant)}.`);
    return createClient(variant, { ...options.clientOptions, apiKey: options.apiKey, baseUrl: options.baseUrl });
  }

  /**
   * Runs a tool. Never throws: a failure is `{ ok: false, error }` with the API's code and message, or the toolkit's;
   * a success may carry `nextStep`, what the model should do next.
   */
  async call(name: string, input?: unknown, options: ToolCallOptions = {}): Promise<ToolResult> {
    try {
      const data = await this.run(name, input, options);
      const step = nextStep(name as ToolName, data);
      return step === undefined ? { ok: true, data } : { ok: true, data, nextStep: step };
    } catch (error) {
      return { ok: false, error: toToolError(error).toJSON() };
    }
  }

  /**
   * Runs a tool and returns what the model should see; throws a `ToolError` when the call fails. The input is
   * checked against the tool's schema first: a value it refuses is `invalid_input` naming the field and the reason,
   * and nothing is sent.
   */
  async run(name: string, input?: unknown, options: ToolCallOptions = {}): Promise<unknown> {
    try {
      const tool = this.#byName.get(name);
      if (tool === undefined) {
        throw new ToolError({
          code: 'unknown_tool',
          message: `There is no tool ${name}; the tools are ${TOOL_NAMES.join(', ')}.`,
        });
      }
      const checked = readToolInput(tool.generated, input, tool.offered.inputSchema.required ?? []);
      tool.validate(checked);
      if ('cardId' in tool.generated.inputSchema.properties) {
        const cardId = readId(checked, 'cardId') ?? this.cardId;
        if (cardId !== undefined) {
          await this.#context.scope.assertCard(cardId);
          checked.cardId = cardId;
        }
      }
      const idempotencyKey =
        options.callId === undefined || tool.offered.readOnly
          ? undefined
          : await callIdempotencyKey(this.agentId, name, options.callId, checked);
      return await toolHandlers[tool.offered.name](checked, {
        ...this.#context,
        inputSchema: tool.offered.inputSchema,
        call: { ...options, idempotencyKey },
      });
    } catch (error) {
      throw toToolError(error);
    }
  }

  /** What the model should do after `name` answered `data` (see `ToolResult.nextStep`); undefined when obvious. */
  nextStep(name: ToolName, data: unknown): string | undefined {
    return nextStep(name, data);
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
