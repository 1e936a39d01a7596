import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

/** The built binary (the root `npm test` builds before testing). */
const bin = fileURLToPath(new URL('../../dist/cli.mjs', import.meta.url));
const children = new Set<ChildProcessWithoutNullStreams>();

export interface CliProcess {
  child: ChildProcessWithoutNullStreams;
  url: string;
  output(): string;
  /** Sends the signal and resolves with the exit code (null when killed by the signal). */
  stop(signal: NodeJS.Signals): Promise<number | null>;
}

/** Starts `cardrail-mock` in its own process and resolves once it announces its address. */
export async function startCli(args: string[]): Promise<CliProcess> {
  const child = spawn(process.execPath, [bin, ...args], { stdio: 'pipe' });
  children.add(child);
  child.once('exit', () => children.delete(child));
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const onData = () => {
      const match = /Cardrail mock server listening on (http:\/\/\S+\/v1)/.exec(output);
      if (match?.[1]) resolve(match[1]);
    };
    child.stdout.on('data', onData);
    child.once('exit', (code) => reject(new Error(`cardrail-mock exited with ${code} before listening:\n${output}`)));
  });
  return {
    child,
    url,
    output: () => output,
    async stop(signal) {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      const exited = once(child, 'exit');
      child.kill(signal);
      const [code] = (await exited) as [number | null];
      return code;
    },
  };
}

/** Kills every child still running (afterEach). */
export function killChildren(): void {
  for (const child of children) child.kill('SIGKILL');
  children.clear();
}
