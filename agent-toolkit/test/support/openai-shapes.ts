/**
 * OpenAI's function tool shapes as JSON Schema, transcribed from its API reference (the same text documents the
 * `openai` package's `ChatCompletionFunctionTool`, `FunctionDefinition` and Responses `FunctionTool` types):
 * `name` is a-z, A-Z, 0-9, underscores and dashes, at most 64 characters; `parameters` is a JSON Schema object;
 * `strict` a boolean. The type-level check against the package's own types is in adapters.test-d.ts.
 */
const functionName = { type: 'string', pattern: '^[a-zA-Z0-9_-]{1,64}$' };
const parameters = {
  type: 'object',
  required: ['type', 'properties'],
  properties: { type: { const: 'object' }, properties: { type: 'object' } },
};

export const chatCompletionFunctionTool = {
  type: 'object',
  required: ['type', 'function'],
  additionalProperties: false,
  properties: {
    type: { const: 'function' },
    function: {
      type: 'object',
      required: ['name'],
      additionalProperties: false,
      properties: { name: functionName, description: { type: 'string' }, parameters, strict: { type: ['boolean', 'null'] } },
    },
  },
};

export const responsesFunctionTool = {
  type: 'object',
  required: ['type', 'name', 'parameters', 'strict'],
  additionalProperties: false,
  properties: {
    type: { const: 'function' },
    name: functionName,
    description: { type: ['string', 'null'] },
    parameters: { oneOf: [parameters, { type: 'null' }] },
    strict: { type: ['boolean', 'null'] },
  },
};
