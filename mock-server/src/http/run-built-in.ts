import { isPromise } from '../core/is-promise.js';
import { recordText } from '../core/record-text.js';
import type { Variant } from '../core/variant.js';
import { codecs } from '../variants/index.js';
import { builtInHandlers } from '../resources/handler-table.js';
import type { NeutralContext, NeutralOperationId } from '../operations/neutral.js';

/** The validated wire input of a request, and who sent it. */
export interface DispatchInput {
  params: object;
  query: object;
  body: unknown;
  context: Omit<NeutralContext<NeutralOperationId>, 'params' | 'query' | 'body'>;
}

/** One codec entry and one handler, seen from the router, which dispatches by the operationId it matched. */
interface ErasedCodec {
  decode?: (wire: { params: object; query: object; body: unknown }) => { params: object; query: object; body: unknown };
  encode?: (output: unknown) => unknown;
  storedRecord?: true;
}

/** A built-in handler's answer: its body, and its JSON text when it is a stored record's (kept across reads). */
interface BuiltInAnswer {
  body: unknown;
  text?: string | undefined;
}
type ErasedHandler = (ctx: object) => unknown;

/**
 * Runs the mock's own implementation of a variant's operation: its codec decodes the wire input, the neutral handler
 * runs, the codec renders its output as the variant's documented body. The tables are checked operation by operation
 * at compile time (variants/codec.ts, resources/handler-table.ts); here they are read by the operationId the router
 * matched, so they are seen through their erased shapes. Undefined when the mock has no implementation of it.
 */
export function runBuiltIn(
  variant: Variant,
  operationId: string,
  input: DispatchInput,
): BuiltInAnswer | Promise<BuiltInAnswer> | undefined {
  const codec = codecs[variant];
  const entry = (codec.operations as Record<string, ErasedCodec | undefined>)[operationId];
  if (entry === undefined) return undefined;
  const neutralId = (codec.aliases as Record<string, string | undefined>)[operationId] ?? operationId;
  const handler = (builtInHandlers as Record<string, ErasedHandler | undefined>)[neutralId];
  if (handler === undefined) return undefined;
  const { context } = input;
  let { params, query, body } = input;
  if (entry.decode) ({ params, query, body } = entry.decode({ params, query, body }));
  // One object shape for every request: the hot path stays monomorphic.
  const output = handler({
    tenant: context.tenant,
    variant: context.variant,
    apiKey: context.apiKey,
    services: context.services,
    params,
    query,
    body,
  });
  if (isPromise(output)) return output.then((value) => answerOf(entry, variant, value));
  return answerOf(entry, variant, output);
}

/** The rendered body, with the record's kept text when the operation answers a stored record. */
function answerOf(entry: ErasedCodec, variant: Variant, output: unknown): BuiltInAnswer {
  const body = entry.encode ? entry.encode(output) : output;
  if (entry.storedRecord !== true) return { body };
  return { body, text: recordText(output as object, variant, () => JSON.stringify(body)) };
}
