/**
 * Cardrail's API as tools for an LLM agent, bound to one API key and one agent: `createCardrailToolkit`, and the
 * OpenAI function-calling adapters.
 *
 * @module @cardrail/agent-toolkit
 */
export {
  CardrailToolkit,
  createCardrailToolkit,
  type CardrailToolkitOptions,
  type CardrailTool,
  type ToolResult,
} from './toolkit.js';
export { ToolError, type ToolErrorBody } from './tool-error.js';
export type { ApiVariant } from './api-variant.js';
export type { CardrailApiClient } from './client.js';
export type { CardCredentials, CredentialExposure, FullCredentials, MaskedCredentials } from './credential-exposure.js';
export type { GeneratedTool, JsonSchema, ToolInputSchema, ToolOutputSchema } from './generated-tool.js';
export type { ToolCallOptions, ToolProgress } from './tools/tool-handler.js';
export type { InputProblem } from './input-validation.js';
export { TOOL_NAMES, type ToolName } from './generated/tool-schemas.js';
export {
  runOpenAIToolCall,
  toOpenAIResponsesTools,
  toOpenAITools,
  type OpenAIChatFunctionTool,
  type OpenAIResponsesFunctionTool,
  type OpenAIToolsOptions,
} from './adapters/openai.js';
export type { MerchantAccess, MerchantOptions, PaymentOptions } from './merchant-access.js';
export { VERSION } from './version.js';
