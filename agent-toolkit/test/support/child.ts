import { spawn, type ChildProcess } from 'node:child_process';
import { BIN } from './bin.js';

export interface Finished {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs the built bin to its end, with `input` (or nothing) on stdin. */
export function runBin(args: readonly string[], options: { env?: NodeJS.ProcessEnv; input?: string } = {}): Promise<Finished> {
  const child = spawn(process.execPath, [BIN, ...args], { env: options.env ?? {}, stdio: ['pipe', 'pipe', 'pipe'] });
  child.stdin.end(options.input ?? '');
  return finished(child);
}

export function finished(child: ChildProcess): Promise<Finished> {
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (status, signal) => resolve({ status, signal, stdout, stderr }));
  });
}

/** Resolves with the first stderr line matching `pattern` (the bin announces where it listens). */
export function stderrLine(child: ChildProcess, pattern: RegExp): Promise<RegExpMatchArray> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const onData = (chunk: Buffer) => {
      seen += chunk.toString('utf8');
      const match = seen.match(pattern);
      if (match) {
        child.stderr?.off('data', onData);
        resolve(match);
      }
    };
    child.stderr?.on('data', onData);
    child.once('exit', (status) => reject(new Error(`The bin exited (${status}) before printing ${pattern}: ${seen}`)));
  });
}
