import type { DecisionTimeoutError } from '@cardrail/sdk';
import { ToolError } from '../tool-error.js';
import { readId } from '../tool-input.js';
import type { ToolHandler } from './tool-handler.js';

/** The default of the toolkit's `timeoutSeconds` field, as its schema states it. */
function defaultSeconds(schema: { default?: unknown } | undefined): number {
  if (typeof schema?.default !== 'number')
    throw new ToolError({ code: 'internal_error', message: 'timeoutSeconds has no default.' });
  return schema.default;
}

/**
 * Waits for a person to decide an intent of the agent (`intents.waitForDecision`), at most `timeoutSeconds` (its
 * schema states the default and the maximum, which the input was checked against). The intent is checked to be the
 * agent's before any wait: one read for an intent not seen before, none for one known. When the time runs out the
 * intent is answered as last read, still `pending_approval`.
 */
export const waitForApproval: ToolHandler = async (input, { client, scope, inputSchema, call }) => {
  const intentId = readId(input, 'intentId') as string;
  await scope.assertIntent(intentId);
  const seconds = (input.timeoutSeconds as number | undefined) ?? defaultSeconds(inputSchema.properties.timeoutSeconds);
  const totalMs = seconds * 1000;
  const started = Date.now();
  try {
    const intent = await client.intents.waitForDecision(intentId, {
      timeoutMs: totalMs,
      signal: call.signal,
      onPending: () =>
        call.onProgress?.({
          message: `Intent ${intentId} is still waiting for a person's decision.`,
          elapsedMs: Date.now() - started,
          totalMs,
        }),
    });
    scope.checkIntent(intent);
    return intent;
  } catch (error) {
    if (isDecisionTimeout(error)) return error.intent;
    throw error;
  }
};

// Duck-typed rather than `instanceof`: a client passed in may come from the SDK's other build (ESM or CommonJS).
function isDecisionTimeout(error: unknown): error is DecisionTimeoutError {
  return error instanceof Error && (error as { code?: unknown }).code === 'decision_timeout' && 'intent' in error;
}
