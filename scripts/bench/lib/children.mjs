// Child processes that must not outlive the benchmark. Each child leads its own process group, so stopping it
// also ends anything it spawned; every live child is killed when the bench process exits, crashes or is
// interrupted (Ctrl-C reaches only the foreground group, which detached children are not part of).
import { spawn } from 'node:child_process';

const live = new Set();
const OUTPUT_TAIL = 20_000;

function killGroup(child, signal) {
  try {
    process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}

/** Kills every live child at once (synchronous, so it also works inside an 'exit' handler). */
export function killAllChildren() {
  for (const child of live) killGroup(child, 'SIGKILL');
  live.clear();
}

process.on('exit', killAllChildren);
for (const [signal, number] of [
  ['SIGINT', 2],
  ['SIGTERM', 15],
  ['SIGHUP', 1],
]) {
  process.once(signal, () => {
    process.stderr.write(`\nbench: ${signal}, stopping child processes\n`);
    killAllChildren();
    process.exit(128 + number);
  });
}

/**
 * Spawns a tracked child. `stdout: 'ignore'` sends its standard output to /dev/null (Prism logs every request);
 * otherwise standard output and error are kept, the tail only, for error messages. `input` is written to stdin.
 */
export function spawnChild(command, args, { stdout = 'pipe', input, cwd, env } = {}) {
  const child = spawn(command, args, {
    cwd,
    env,
    detached: true,
    stdio: [input === undefined ? 'ignore' : 'pipe', stdout, 'pipe'],
  });
  let output = '';
  const append = (chunk) => {
    output = (output + chunk.toString()).slice(-OUTPUT_TAIL);
  };
  child.stdout?.on('data', append);
  child.stderr?.on('data', append);
  let exitedFlag = false;
  const exited = new Promise((resolve) => {
    const done = (status) => {
      if (exitedFlag) return;
      exitedFlag = true;
      live.delete(child);
      resolve(status);
    };
    child.once('exit', (code, signal) => done({ code, signal }));
    child.once('error', (error) => {
      append(`${error.message}\n`);
      done({ code: null, signal: null, error });
    });
  });
  if (child.pid !== undefined) live.add(child);
  if (input !== undefined) {
    child.stdin.on('error', () => {}); // a child that died early must not crash the bench with EPIPE
    child.stdin.end(input);
  }

  return {
    pid: child.pid,
    exited,
    hasExited: () => exitedFlag,
    output: () => output,
    /** SIGTERM to the group, SIGKILL after graceMs; resolves once the child is gone. */
    async stop(graceMs = 3_000) {
      if (exitedFlag || child.pid === undefined) return;
      killGroup(child, 'SIGTERM');
      const timer = setTimeout(() => killGroup(child, 'SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
      // The group may hold grandchildren that ignored SIGTERM.
      killGroup(child, 'SIGKILL');
    },
  };
}
