import { CONTROL_BASE_PATH } from './control-path.js';

const error = { $ref: '#/components/responses/Error' };
const errors = { '400': error, '401': error, '404': error, '405': error };
/** The calls that read or write the state: with a PostgreSQL state, 503 while the database cannot be reached. */
const stateErrors = { ...errors, '503': { $ref: '#/components/responses/StateNotSaved' } };
const keyHeader = { $ref: '#/components/parameters/ApiKey' };
const ok = (description: string, schema?: object) =>
  schema ? { description, content: { 'application/json': { schema } } } : { description };

/**
 * The control API's OpenAPI 3.1 document, served at `/__cardrail/openapi.json`: what `connectMock` calls, for test
 * suites in any language. A test holds it equal to the routes the server answers.
 */
export const controlOpenApi = {
  openapi: '3.1.0',
  info: {
    title: 'Cardrail mock control API',
    version: '1',
    description:
      'The test kit of a standalone Cardrail mock (`cardrail-mock --control`) over HTTP: reset, snapshot and restore, ' +
      "every organization's test clock, an organization's events and webhook deliveries, faults, idle. Every call " +
      "but this document needs `Authorization: Bearer <control token>`. Errors use the API's error format.",
  },
  servers: [{ url: CONTROL_BASE_PATH }],
  security: [{ controlToken: [] }],
  paths: {
    '/reset': {
      post: {
        operationId: 'reset',
        summary: 'Forget every organization, object, event, delivery and fault',
        responses: { '204': ok('Reset.'), ...stateErrors },
      },
    },
    '/snapshot': {
      get: {
        operationId: 'snapshot',
        summary: 'The whole state, as mock.snapshot() gives it',
        responses: { '200': ok('The snapshot.', { $ref: '#/components/schemas/Snapshot' }), ...stateErrors },
      },
      put: {
        operationId: 'restore',
        summary: 'Replace the state with a snapshot (a refused one changes nothing)',
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/Snapshot' } } } },
        responses: { '204': ok('Restored.'), '413': error, ...stateErrors },
      },
    },
    '/idle': {
      post: {
        operationId: 'idle',
        summary: 'Answer once no due work is left and every webhook attempt started has finished',
        responses: { '204': ok('Idle.'), ...stateErrors },
      },
    },
    '/clock/advance': {
      post: {
        operationId: 'advanceClock',
        summary: "Advance every organization's test clock, running what falls due in time order",
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['seconds'],
                properties: { seconds: { type: 'integer', minimum: 1, maximum: 315360000 } },
              },
            },
          },
        },
        responses: {
          '200': ok('Advanced.', {
            type: 'object',
            required: ['now'],
            properties: { now: { type: 'string', format: 'date-time' } },
          }),
          ...stateErrors,
        },
      },
    },
    '/clock': {
      get: {
        operationId: 'clock',
        summary: 'The base test-clock time (new organizations start from it) and whether the clocks are frozen',
        responses: {
          '200': ok('The clock.', {
            type: 'object',
            required: ['now', 'frozen'],
            properties: { now: { type: 'string', format: 'date-time' }, frozen: { type: 'boolean' } },
          }),
          ...errors,
        },
      },
    },
    '/organization': {
      get: {
        operationId: 'organization',
        summary: 'The organization, mode, variant and test-clock time of an API key the mock knows',
        parameters: [keyHeader],
        responses: {
          '200': ok('The organization.', {
            type: 'object',
            required: ['organizationId', 'mode', 'variant', 'now'],
            properties: {
              organizationId: { type: 'string' },
              mode: { enum: ['test', 'live'] },
              variant: { enum: ['customer', 'user'] },
              now: { type: 'string', format: 'date-time' },
            },
          }),
          ...stateErrors,
        },
      },
    },
    '/events': {
      get: {
        operationId: 'events',
        summary: "The organization's events, oldest first, in its variant's names and envelope",
        parameters: [keyHeader, { name: 'type', in: 'query', required: false, schema: { type: 'string' } }],
        responses: { '200': ok('The events.', { $ref: '#/components/schemas/List' }), ...stateErrors },
      },
    },
    '/deliveries': {
      get: {
        operationId: 'deliveries',
        summary: "The organization's webhook deliveries, newest first, as GET /webhooks/{id}/deliveries shows them",
        parameters: [keyHeader],
        responses: { '200': ok('The deliveries.', { $ref: '#/components/schemas/List' }), ...stateErrors },
      },
    },
    '/faults': {
      get: {
        operationId: 'listFaults',
        summary: 'The faults in force, in the order they apply',
        responses: { '200': ok('The faults.', { $ref: '#/components/schemas/List' }), ...errors },
      },
      post: {
        operationId: 'injectFault',
        summary: 'Fault the matching requests (mock.faults.inject); an unknown operationId is 400 naming the closest',
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { $ref: '#/components/schemas/FaultOptions' } } },
        },
        responses: { '201': ok('The fault.', { $ref: '#/components/schemas/Fault' }), ...errors },
      },
      delete: {
        operationId: 'clearFaults',
        summary: 'Remove every fault (held requests are dropped)',
        responses: { '204': ok('Cleared.'), ...errors },
      },
    },
    '/faults/{faultId}': {
      parameters: [{ name: 'faultId', in: 'path', required: true, schema: { type: 'string' } }],
      get: {
        operationId: 'getFault',
        summary: 'One fault, while it is in force',
        responses: { '200': ok('The fault.', { $ref: '#/components/schemas/Fault' }), ...errors },
      },
      delete: { operationId: 'removeFault', summary: 'Remove one fault', responses: { '204': ok('Removed.'), ...errors } },
    },
  },
  components: {
    securitySchemes: {
      controlToken: {
        type: 'http',
        scheme: 'bearer',
        description: 'The token given with --control-token (or CARDRAIL_CONTROL_TOKEN), or the one printed at start.',
      },
    },
    parameters: {
      ApiKey: {
        name: 'Cardrail-Api-Key',
        in: 'header',
        required: true,
        description: 'Any API key of the organization.',
        schema: { type: 'string' },
      },
    },
    responses: {
      StateNotSaved: {
        description:
          "The state is in PostgreSQL and the database could not be reached or refused the change: `state_not_saved` in the API's error format, with `Retry-After`; nothing of the call was kept (docs/standalone-server.md#when-the-database-goes-away).",
        headers: { 'Retry-After': { schema: { type: 'integer' } } },
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
      },
      Error: {
        description:
          'An error in the API\'s format: `{"error":"unauthorized"}`, `{"error":"not_found"}`, or `{"error":{"code","message","details"}}` (400 names the field in details.field).',
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
      },
    },
    schemas: {
      Error: {
        type: 'object',
        required: ['error'],
        properties: {
          error: { oneOf: [{ type: 'string' }, { type: 'object', required: ['code', 'message', 'details'] }] },
        },
      },
      List: { type: 'object', required: ['data'], properties: { data: { type: 'array', items: { type: 'object' } } } },
      Snapshot: {
        type: 'object',
        description: 'mock.snapshot(): docs/standalone-server.md#the-state-model.',
        required: ['format', 'version', 'sharedOffsetMs', 'random', 'tenants'],
        properties: {
          format: { const: 'cardrail-mock-state' },
          version: { const: 1 },
          sharedOffsetMs: { type: 'number' },
          random: { type: ['object', 'null'] },
          tenants: { type: 'array', items: { type: 'object' } },
        },
      },
      FaultOptions: {
        type: 'object',
        additionalProperties: false,
        description:
          'Which requests to fault (every condition given must hold) and what to do: status, delayMs, drop or hang (afterCommit with status or drop).',
        properties: {
          apiKey: { type: 'string', description: "Only this key's organization and mode." },
          operation: { type: 'string', description: 'An operationId of either variant.' },
          path: {
            type: 'string',
            description: 'A path (`/cards/card_1`) or path template (`/cards/{cardId}`), with or without /v1.',
          },
          times: { type: 'integer', minimum: 1, maximum: 1000000 },
          rate: { type: 'number', minimum: 0, maximum: 1 },
          seed: { type: 'string' },
          status: { enum: [429, 500, 502, 503] },
          retryAfter: { type: 'integer', minimum: 0, maximum: 60 },
          delayMs: { type: 'integer', minimum: 0, maximum: 60000 },
          drop: { type: 'boolean' },
          hang: { type: 'boolean' },
          afterCommit: { type: 'boolean' },
        },
      },
      Fault: {
        type: 'object',
        required: ['id', 'scopedToKey', 'delayMs', 'drop', 'hang', 'afterCommit', 'rate', 'hits'],
        properties: {
          id: { type: 'string' },
          operation: { type: 'string' },
          path: { type: 'string' },
          scopedToKey: { type: 'boolean' },
          status: { enum: [429, 500, 502, 503] },
          delayMs: { type: 'integer' },
          drop: { type: 'boolean' },
          hang: { type: 'boolean' },
          afterCommit: { type: 'boolean' },
          rate: { type: 'number' },
          remaining: { type: 'integer' },
          hits: { type: 'integer' },
        },
      },
    },
  },
} as const;
