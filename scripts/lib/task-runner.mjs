// Runs a graph of shell commands: each task starts once every task it needs has passed, at most `jobs` at a time:
// the ones marked early first, then the longest remaining chain first (so the slow suites and what they wait for are
// never left to the end). Each
// task's output is kept and printed as one block, every line prefixed with the task's name, when the task ends, so
// parallel tasks never interleave. A task whose dependency failed does not run and is reported as such; any failure
// makes the whole run fail, with a summary of what failed and why.
import { spawn } from 'node:child_process';

/**
 * @typedef {object} Task
 * @property {string} name unique; shown before every line of its output
 * @property {string} phase what kind of step it is (static, build, typecheck, test...), for the summary by phase
 * @property {string} command run with `sh -c` in `cwd`
 * @property {string} cwd
 * @property {string[]} [needs] names of the tasks that must pass first
 * @property {number} cost seconds it is expected to take; orders the ready tasks (longest chain first)
 * @property {boolean} [early] starts before the other ready tasks (quick checks whose failure should show at once)
 * @property {Record<string, string>} [env] added to the runner's environment
 */

/**
 * @typedef {object} Result
 * @property {Task} task
 * @property {'passed' | 'failed' | 'not run'} status
 * @property {number} [code] exit code (or 1 when killed by a signal)
 * @property {string} [signal]
 * @property {number} [start] seconds after the run started
 * @property {number} [seconds] wall time
 * @property {number} [cpu] user + system CPU seconds of the command and the processes it waited for
 * @property {string} [reason] why it did not run
 * @property {string} output
 */

/** Seconds from the start to the end of the longest chain of tasks that starts with each task. */
function chainCosts(tasks) {
  const dependents = new Map(tasks.map((task) => [task.name, []]));
  for (const task of tasks) for (const need of task.needs ?? []) dependents.get(need).push(task);
  const memo = new Map();
  const chain = (task) => {
    if (!memo.has(task.name)) memo.set(task.name, task.cost + Math.max(0, ...dependents.get(task.name).map(chain)));
    return memo.get(task.name);
  };
  return new Map(tasks.map((task) => [task.name, chain(task)]));
}

function validate(tasks) {
  const names = new Set();
  for (const task of tasks) {
    if (names.has(task.name)) throw new Error(`task ${task.name} is defined twice`);
    names.add(task.name);
  }
  for (const task of tasks) {
    for (const need of task.needs ?? [])
      if (!names.has(need)) throw new Error(`task ${task.name} needs ${need}, which is not defined`);
  }
  const visiting = new Set();
  const done = new Set();
  const byName = new Map(tasks.map((task) => [task.name, task]));
  const visit = (task, path) => {
    if (done.has(task.name)) return;
    if (visiting.has(task.name)) throw new Error(`tasks need each other in a circle: ${[...path, task.name].join(' -> ')}`);
    visiting.add(task.name);
    for (const need of task.needs ?? []) visit(byName.get(need), [...path, task.name]);
    visiting.delete(task.name);
    done.add(task.name);
  };
  for (const task of tasks) visit(task, []);
}

/** `times` prints the shell's CPU time, then its children's: `0m1.234s 0m0.056s` (user, system) on each line. */
function parseTimes(text) {
  const seconds = [...text.matchAll(/(\d+)m([\d.]+)s/g)].map(([, minutes, rest]) => Number(minutes) * 60 + Number(rest));
  return seconds.length >= 4 ? seconds.reduce((sum, value) => sum + value, 0) : undefined;
}

const prefixLines = (name, text) =>
  text
    .replace(/\n$/, '')
    .split('\n')
    .map((line) => `${name} | ${line}`)
    .join('\n');

/**
 * Runs the tasks and resolves with one result per task, in the order given.
 * @param {Task[]} tasks
 * @param {{ jobs: number, write?: (text: string) => void }} options
 * @returns {Promise<Result[]>}
 */
export function runTasks(tasks, { jobs, write = (text) => process.stdout.write(text) }) {
  validate(tasks);
  const chain = chainCosts(tasks);
  const started = performance.now();
  const elapsed = () => (performance.now() - started) / 1000;
  const stamp = () => `[${elapsed().toFixed(1).padStart(6)} s]`;
  /** @type {Map<string, Result>} */
  const results = new Map();
  const running = new Map();
  let pending = [...tasks];

  return new Promise((resolve) => {
    const stopAll = (signal) => {
      for (const child of running.values()) {
        try {
          process.kill(-child.pid, 'SIGTERM');
        } catch {
          // already gone
        }
      }
      process.exit(signal === 'SIGINT' ? 130 : 143);
    };
    process.once('SIGINT', stopAll);
    process.once('SIGTERM', stopAll);

    const finish = (task, result) => {
      running.delete(task.name);
      results.set(task.name, result);
      const time = result.seconds === undefined ? '' : ` in ${result.seconds.toFixed(1)} s`;
      const cpu = result.cpu === undefined ? '' : ` (${result.cpu.toFixed(1)} s CPU)`;
      const status = result.status === 'failed' ? `FAILED (exit ${result.code})` : result.status;
      write(`${stamp()} ${status.padEnd(6)} ${task.name}${time}${cpu}\n`);
      if (result.output) write(`${prefixLines(task.name, result.output)}\n`);
      schedule();
    };

    const start = (task) => {
      const startedAt = elapsed();
      let output = '';
      let times = '';
      // `times` reports the CPU time of the processes the shell waited for: the command (in a subshell, so that even
      // an `exit` in it comes back here) and everything under it. The command does not get descriptor 3.
      const script = `(\n${task.command}\n) 3>&-\nstatus=$?\ntimes >&3\nexit $status`;
      const child = spawn('sh', ['-c', script], {
        cwd: task.cwd,
        env: { ...process.env, ...task.env },
        stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
        detached: true, // its own process group, so an interrupted run can stop it with everything it started
      });
      running.set(task.name, child);
      write(`${stamp()} start  ${task.name}\n`);
      child.stdout.on('data', (chunk) => (output += chunk));
      child.stderr.on('data', (chunk) => (output += chunk));
      child.stdio[3].on('data', (chunk) => (times += chunk));
      child.on('error', (error) => (output += `\ncould not start: ${error.message}\n`));
      child.on('close', (code, signal) => {
        const seconds = elapsed() - startedAt;
        const failed = code !== 0;
        finish(task, {
          task,
          status: failed ? 'failed' : 'passed',
          code: code ?? 1,
          signal: signal ?? undefined,
          start: startedAt,
          seconds,
          cpu: parseTimes(times),
          output: output + (signal ? `\nkilled by ${signal}\n` : ''),
        });
      });
    };

    const schedule = () => {
      for (const task of pending) {
        const blocked = (task.needs ?? []).find((need) => results.has(need) && results.get(need).status !== 'passed');
        if (blocked) {
          pending = pending.filter((other) => other !== task);
          const reason = `not run: it needs ${blocked}, which ${results.get(blocked).status === 'failed' ? 'failed' : 'did not run'}`;
          finish(task, { task, status: 'not run', reason, output: '' });
          return; // finish() scheduled again with the updated lists
        }
      }
      const ready = pending
        .filter((task) => (task.needs ?? []).every((need) => results.get(need)?.status === 'passed'))
        .sort((a, b) => Number(b.early ?? false) - Number(a.early ?? false) || chain.get(b.name) - chain.get(a.name));
      for (const task of ready) {
        if (running.size >= jobs) break;
        pending = pending.filter((other) => other !== task);
        start(task);
      }
      if (pending.length === 0 && running.size === 0 && results.size === tasks.length) {
        process.removeListener('SIGINT', stopAll);
        process.removeListener('SIGTERM', stopAll);
        resolve(tasks.map((task) => results.get(task.name)));
      }
    };
    schedule();
  });
}
