/** A JSON Schema (draft 2020-12) object, self-contained: no `$ref`, no OpenAPI-only keywords. */
export type JsonSchema = { [keyword: string]: unknown };

/** The input schema of a tool: always an object of named fields. */
export interface ToolInputSchema extends JsonSchema {
  /** Always `object`. */
  type: 'object';
  /** The input fields and their schemas. */
  properties: Record<string, JsonSchema>;
  /** The fields the tool needs. */
  required?: string[];
  /** No other field is accepted. */
  additionalProperties: false;
}

/** What a tool returns: the operation's success response, as JSON Schema. */
export interface ToolOutputSchema extends JsonSchema {
  /** Always `object`. */
  type: 'object';
}

/** What generation derives from the spec for one tool in one API variant. */
export interface GeneratedTool {
  /** The tool's name. */
  name: string;
  /** The tool's name as a person reads it. */
  title: string;
  /** The spec operation the tool calls. */
  operationId: string;
  /** The operation's HTTP method. */
  method: 'GET' | 'POST';
  /** The operation's path, e.g. `/cards/{cardId}/policy`. */
  path: string;
  /** Whether the tool changes nothing. */
  readOnly: boolean;
  /** Whether it may take away something the agent cannot give back (freezing a card); meaningful when not read-only. */
  destructive: boolean;
  /** Whether calling it again with the same input changes nothing more. */
  idempotent: boolean;
  /** Whether it reaches beyond the organization's own records at Cardrail (only pay_merchant: the merchants allowed). */
  openWorld: boolean;
  /** Whether its answer may be something waiting for a person's decision (an intent `pending_approval`). */
  mayNeedPerson: boolean;
  /** The operation's summary and description from the spec, then guidance for a model. */
  description: string;
  /** The input the tool takes, derived from the operation's parameters and body. */
  inputSchema: ToolInputSchema;
  /** What the tool returns, derived from the operation's success response. */
  outputSchema: ToolOutputSchema;
}
