import { inputRequired, type Tool } from '@modelcontextprotocol/server';
import type { RequestStates } from './request-states.js';
import type { McpToolEntry } from './tool-entry.js';

const NO_INPUT: Tool['inputSchema'] = { type: 'object', properties: {} };

function fixture(name: string, description: string, call: McpToolEntry['call']): McpToolEntry {
  return { definition: { name, description: `Conformance fixture (test only): ${description}`, inputSchema: NO_INPUT }, call };
}

/** A pause of the progress fixture. */
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The round trip of a signed requestState: asks to confirm, and answers `ok` once the state verified. */
function stateFixture(states: RequestStates, name: string, ok: string): McpToolEntry {
  return fixture(name, 'signs its requestState.', async (args, ctx) => {
    if ((await states.check(ctx, name, args)) !== undefined) return { content: [{ type: 'text', text: ok }] };
    return inputRequired({
      inputRequests: {
        confirm: inputRequired.elicit({
          message: 'Please confirm',
          requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
        }),
      },
      requestState: await states.seal(ctx, name, args, { intentId: '', path: 'fixture' }),
    });
  });
}

/**
 * The tools the MCP conformance suite (`@modelcontextprotocol/conformance`) calls by name, for the scenarios whose
 * behaviour this server has: text answers, tool errors, progress, the stateless checks (`server-stateless`) and its
 * signed `requestState` (the same `RequestStates` as the catalog's tools). Test only: a server offers them only
 * when created with `conformanceFixtures: true` (`cardrail-mcp` with `CARDRAIL_MCP_CONFORMANCE_FIXTURES=1`), which the
 * toolkit's conformance test does; never to a model.
 */
export function conformanceFixtures(states: RequestStates): McpToolEntry[] {
  return [
    // Sampling, which the suite's client does not declare: the SDK answers -32021 before anything is asked.
    fixture('test_missing_capability', 'asks for sampling.', async () =>
      inputRequired({
        inputRequests: {
          sample: inputRequired.createMessage({
            messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }],
            maxTokens: 5,
          }),
        },
      }),
    ),
    // Input through input_required and a retry, never a request of its own on the response stream.
    fixture('test_streaming_elicitation', 'asks for a name through input_required.', async (_args, ctx) =>
      ctx.mcpReq.inputResponses?.name
        ? { content: [{ type: 'text', text: 'Thanks.' }] }
        : inputRequired({
            inputRequests: {
              name: inputRequired.elicit({
                message: 'Your name?',
                requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
              }),
            },
          }),
    ),
    // A log line, which the SDK drops when the request asked for no log level.
    fixture('test_logging_tool', 'logs a line.', async (_args, ctx) => {
      await ctx.mcpReq.log('info', 'A log line.');
      return { content: [{ type: 'text', text: 'Logged.' }] };
    }),
    // The server's own signed requestState (request-states.ts): a tampered one is refused before this runs.
    stateFixture(states, 'test_input_required_result_tampered_state', 'State verified.'),
    stateFixture(states, 'test_input_required_result_request_state', 'state-ok: the requestState verified.'),
    fixture('test_simple_text', 'answers text.', async () => ({
      content: [{ type: 'text', text: 'This is a simple text response for testing.' }],
    })),
    fixture('test_error_handling', 'answers a tool error.', async () => ({
      isError: true,
      content: [{ type: 'text', text: 'This tool intentionally returns an error for testing' }],
    })),
    // Progress as wait_for_approval reports it: notifications/progress with the request's token, streamed.
    fixture('test_tool_with_progress', 'reports progress.', async (_args, ctx) => {
      const progressToken = ctx.mcpReq._meta?.progressToken;
      for (const progress of [0, 50, 100]) {
        if (progressToken !== undefined) {
          await ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken, progress, total: 100 } });
        }
        if (progress < 100) await pause(50);
      }
      return { content: [{ type: 'text', text: 'Done, with progress.' }] };
    }),
  ];
}
