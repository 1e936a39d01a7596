/** A JSON Schema (draft 2020-12) object, self-contained: no `$ref`, no OpenAPI-only keywords. */
export type JsonSchema = { [keyword: string]: unknown };

/** The input schema of a tool: always an object of named fields. */
export interface ToolInputSchema extends JsonSchema {
  type: 'object';
  properties: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties: false;
}

/** What generation derives from the spec for one tool in one API variant. */
export interface GeneratedTool {
  name: string;
  /** The spec operation the tool calls. */
  operationId: string;
  method: 'GET' | 'POST';
  path: string;
  /** Whether the tool changes nothing. */
  readOnly: boolean;
  /** The operation's summary and description from the spec, then guidance for a model. */
  description: string;
  inputSchema: ToolInputSchema;
}
