import { Transform, Writable } from 'node:stream';
import { invalidParamsAnswer } from './params-guard.js';

/** A request that stays open by design (a subscription stream), which ending the input must not wait for. */
const OPEN_ENDED = new Set(['subscriptions/listen']);

type Id = string | number;

function parsed(line: string): { id?: unknown; method?: unknown; result?: unknown; error?: unknown } | undefined {
  try {
    const message = JSON.parse(line) as unknown;
    return typeof message === 'object' && message !== null ? (message as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

const isId = (id: unknown): id is Id => typeof id === 'string' || typeof id === 'number';

/** What a connection's owner serves itself, beside the SDK. */
export interface StdioHooks {
  /** Serves an incoming message itself (true: not passed on), writing its answers with `write`. */
  intercept?(message: unknown, write: (message: unknown) => void): boolean;
  /** The client closed its input. */
  onInputEnd?(): void;
}

/**
 * The stdio streams the MCP SDK's transport reads and writes, between it and the process's own:
 * - a message the owner serves itself (`hooks.intercept`) is not passed on;
 * - a request whose params are not an object is answered here with -32602 (the SDK's transport would drop it without
 *   an answer), and not passed on;
 * - when the client closes its input, the SDK's transport sees the end only once every request read before it has
 *   been answered (the SDK aborts requests still in flight at the end of input): `echo '...' | cardrail-mcp` answers
 *   everything it was sent, then exits.
 */
export function stdioStreams(
  input: NodeJS.ReadableStream,
  output: NodeJS.WritableStream,
  hooks: StdioHooks = {},
): { input: Transform; output: Writable } {
  const write = (message: unknown) => output.write(`${JSON.stringify(message)}\n`);
  const inFlight = new Set<Id>();
  let inputEnded = false;
  let pending = '';
  const lines = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      pending += chunk.toString('utf8');
      let newline = pending.indexOf('\n');
      while (newline !== -1) {
        const line = pending.slice(0, newline + 1);
        pending = pending.slice(newline + 1);
        const refused = invalidParamsAnswer(line);
        if (refused !== undefined) output.write(`${refused}\n`);
        else {
          const message = parsed(line);
          if (hooks.intercept?.(message, write) !== true) {
            if (isId(message?.id) && typeof message.method === 'string' && !OPEN_ENDED.has(message.method))
              inFlight.add(message.id);
            this.push(line);
          }
        }
        newline = pending.indexOf('\n');
      }
      done();
    },
    flush(done) {
      if (pending !== '') this.push(pending);
      done();
    },
  });
  const endWhenAnswered = () => {
    if (inputEnded && inFlight.size === 0 && !lines.writableEnded) lines.end();
  };
  input.pipe(lines, { end: false });
  input.once('end', () => {
    inputEnded = true;
    hooks.onInputEnd?.();
    endWhenAnswered();
  });

  let written = '';
  const answers = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      written += chunk.toString();
      let newline = written.indexOf('\n');
      while (newline !== -1) {
        const message = parsed(written.slice(0, newline));
        written = written.slice(newline + 1);
        if (isId(message?.id) && message.method === undefined && ('result' in message || 'error' in message)) {
          inFlight.delete(message.id);
        }
        newline = written.indexOf('\n');
      }
      if (output.write(chunk)) done();
      else output.once('drain', () => done());
      // After the answer is on its way: the input may end now.
      queueMicrotask(endWhenAnswered);
    },
  });
  return { input: lines, output: answers };
}
