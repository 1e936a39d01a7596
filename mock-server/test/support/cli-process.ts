import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

/** The built binary (the root `npm test` builds before testing). */
const bin = fileURLToPath(new URL('../../dist/cli.mjs', import.meta.url));
const children = new Set<ChildProcessWithoutNullStreams>();

/** `cardrail-mock` (or another script: `entry`) in its own process, its standard output and error gathered as they come. */
function spawnCli(
  args: string[],
  entry = bin,
  env: NodeJS.ProcessEnv = process.env,
): { child: ChildProcessWithoutNullStreams; output(): string } {
  const child = spawn(process.execPath, [entry, ...args], { stdio: 'pipe', env });
  children.add(child);
  child.once('exit', () => children.delete(child));
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return { child, output: () => output };
}

export interface CliProcess {
  child: ChildProcessWithoutNullStreams;
  url: string;
  output(): string;
  /** Sends the signal and resolves with the exit code (null when killed by the signal). */
  stop(signal: NodeJS.Signals): Promise<number | null>;
}

/** Starts `cardrail-mock` (or `entry`) in its own process and resolves once it announces its address. */
export async function startCli(args: string[], entry?: string, env?: NodeJS.ProcessEnv): Promise<CliProcess> {
  const { child, output } = spawnCli(args, entry, env);
  const url = await new Promise<string>((resolve, reject) => {
    const onData = () => {
      const match = /Cardrail mock server listening on (http:\/\/\S+\/v1)/.exec(output());
      if (match?.[1]) resolve(match[1]);
    };
    child.stdout.on('data', onData);
    child.once('exit', (code) => reject(new Error(`cardrail-mock exited with ${code} before listening:\n${output()}`)));
  });
  return {
    child,
    url,
    output,
    async stop(signal) {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      const exited = once(child, 'exit');
      child.kill(signal);
      const [code] = (await exited) as [number | null];
      return code;
    },
  };
}

/** Runs `cardrail-mock` until it exits by itself (as it does on arguments it refuses): its exit code and output. */
export async function runCliToExit(args: string[], env?: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  const { child, output } = spawnCli(args, undefined, env);
  // 'close' rather than 'exit': by then both streams have ended, so the output is whole.
  const [code] = (await once(child, 'close')) as [number | null];
  return { code, output: output() };
}

/** Kills every child still running (afterEach), but those in `keep` (a server a whole suite shares). */
export function killChildren(keep: readonly ChildProcessWithoutNullStreams[] = []): void {
  for (const child of children) {
    if (keep.includes(child)) continue;
    child.kill('SIGKILL');
    children.delete(child);
  }
}

/**
 * Starts `cardrail-mock`, resolving when it either listens or exits (one of two started at the same instant on one
 * directory does each): its process, exit code (null while it runs) and output.
 */
export async function startOrExit(
  args: string[],
): Promise<{ process: ChildProcessWithoutNullStreams; listening: boolean; code: number | null; output(): string }> {
  const { child, output } = spawnCli(args);
  return new Promise((resolve) => {
    const onData = () => {
      if (/listening on http/.test(output())) resolve({ process: child, listening: true, code: null, output });
    };
    child.stdout.on('data', onData);
    child.once('close', (code) => resolve({ process: child, listening: false, code, output }));
  });
}
