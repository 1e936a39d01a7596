import { newControlToken } from '../testkit/control-token.js';

/** `control` of `startMockServer`: the test kit over HTTP at `/__cardrail/` (docs/testing.md#across-processes). */
export interface ControlOptions {
  /** The bearer token control calls must present. Default: `CARDRAIL_CONTROL_TOKEN`, else a new random one. */
  token?: string | undefined;
  /** Serve control on an interface other than loopback (anyone who can reach it and has the token drives the mock). */
  allowRemote?: boolean | undefined;
}

/** Where a server's control API answers, and its token. */
export interface RunningControl {
  /** `http://127.0.0.1:4010/__cardrail`. */
  url: string;
  /** The bearer token control calls present. */
  token: string;
  /** Whether the token was made at start (none was given), so the CLI prints it. */
  tokenGenerated: boolean;
}

/** The largest control request body (a snapshot to restore), in bytes. */
export const CONTROL_MAX_BODY_BYTES = 256 * 1024 * 1024;

/**
 * The control API's token, or undefined when control is off. Refuses, before anything listens, control on an
 * interface other than loopback unless it was allowed explicitly, and a token too short to be a secret.
 */
export function resolveControl(
  control: boolean | ControlOptions | undefined,
  host: string,
): { token: string; generated: boolean } | undefined {
  if (control === undefined || control === false) return undefined;
  const options = control === true ? {} : control;
  if (!isLoopback(host) && options.allowRemote !== true) {
    throw new Error(
      `The control API on ${host} would let other machines reset and drive the mock: bind a loopback address (--host 127.0.0.1), or allow it explicitly (--control-allow-remote, control: { allowRemote: true }).`,
    );
  }
  const given = options.token ?? readEnvToken();
  if (given !== undefined && (given.length < 16 || !/^[\x21-\x7e]+$/.test(given))) {
    throw new Error(
      'The control token must be at least 16 printable characters without spaces (--control-token, CARDRAIL_CONTROL_TOKEN).',
    );
  }
  return given === undefined ? { token: newControlToken(), generated: true } : { token: given, generated: false };
}

function readEnvToken(): string | undefined {
  const value = globalThis.process?.env?.CARDRAIL_CONTROL_TOKEN;
  return value === undefined || value === '' ? undefined : value;
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);
}
