/** How much the client logs: `off`, or `error` up to `debug` (each level includes the ones before it). */
export type LogLevel = 'off' | 'error' | 'warn' | 'info' | 'debug';

/** Anything with console's four methods, e.g. console itself, pino or winston. */
export interface Logger {
  /** A request failed for good. */
  error(message: string, ...rest: unknown[]): void;
  /** Something went wrong and was handled, such as a retry. */
  warn(message: string, ...rest: unknown[]): void;
  /** A request and its outcome. */
  info(message: string, ...rest: unknown[]): void;
  /** Details of each attempt, headers redacted. */
  debug(message: string, ...rest: unknown[]): void;
}

/** The client's logger: a Logger that also says whether debug lines are written, so they are built only then. */
export interface ClientLogger extends Logger {
  readonly debugging: boolean;
}

const rank: Record<LogLevel, number> = { off: 0, error: 1, warn: 2, info: 3, debug: 4 };
const noop = (): void => {};

/** A logger that drops messages above `level`; the sink is looked up at call time so spies and swaps work. */
export function leveledLogger(level: LogLevel, sink: Logger): ClientLogger {
  const allows = (wanted: Exclude<LogLevel, 'off'>) => rank[level] >= rank[wanted];
  return {
    error: allows('error') ? (message, ...rest) => sink.error(message, ...rest) : noop,
    warn: allows('warn') ? (message, ...rest) => sink.warn(message, ...rest) : noop,
    info: allows('info') ? (message, ...rest) => sink.info(message, ...rest) : noop,
    debug: allows('debug') ? (message, ...rest) => sink.debug(message, ...rest) : noop,
    debugging: allows('debug'),
  };
}
