import { spawn } from 'node:child_process';
import { WAITS } from '../../scripts/lib/test-waits.mjs';

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Both streams, for failure messages. */
  output: string;
}

/**
 * Runs a command to its end (killed at `timeoutMs`) and returns its exit code and output; never throws for a
 * failing command, so a test can assert on what it printed.
 */
export function run(
  command: string,
  args: string[],
  options: { cwd: string; timeoutMs?: number; env?: NodeJS.ProcessEnv },
): Promise<RunResult> {
  const timeoutMs = options.timeoutMs ?? WAITS.run;
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      // Plain output for assertions and failure messages.
      env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1', ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk;
      output += chunk;
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk;
      output += chunk;
    });
    const timer = setTimeout(() => {
      output += `\n[killed after ${timeoutMs} ms]`;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, output });
    });
  });
}
