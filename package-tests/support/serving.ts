import { spawn } from 'node:child_process';

/** A process that serves something until stopped. */
export interface Serving {
  /** What the `ready` pattern captured (its first group): the address the process printed. */
  readonly address: string;
  /** Everything the process printed so far, both streams. */
  output(): string;
  /** Stops the process and everything it started (SIGTERM to its process group) and waits for it to end. */
  stop(): Promise<void>;
}

/**
 * Starts `command` in its own process group and resolves once its output matches `ready` (whose first group is the
 * address it serves on); rejects with the output if it exits or stays silent past the timeout first.
 */
export async function serve(
  command: string,
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; ready: RegExp; timeoutMs?: number },
): Promise<Serving> {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1', ...options.env },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  let output = '';
  let running = true;
  child.once('exit', () => {
    running = false;
  });
  const stop = async (): Promise<void> => {
    // The npx wrapper and whatever runs under it are one process group.
    if (running && child.pid !== undefined) process.kill(-child.pid, 'SIGTERM');
    await exited;
  };
  try {
    const address = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`${command} ${args.join(' ')} printed nothing matching ${options.ready}:\n${output}`)),
        options.timeoutMs ?? 30_000,
      );
      const seen = (chunk: Buffer): void => {
        output += chunk;
        const match = options.ready.exec(output);
        if (match?.[1]) {
          clearTimeout(timer);
          resolve(match[1]);
        }
      };
      child.stdout.on('data', seen);
      child.stderr.on('data', seen);
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`${command} ${args.join(' ')} exited with ${code}:\n${output}`));
      });
    });
    return { address, output: () => output, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
