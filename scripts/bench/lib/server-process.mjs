// A server in a child process of its own: spawned, polled over HTTP until it answers, and timed from the spawn to
// that first 2xx answer (the start-up figure).
import { spawnChild } from './children.mjs';
import { waitForHttp } from './http-probe.mjs';

/**
 * Starts `command args` and waits until GET `origin + probe.path` answers 2xx.
 * Resolves with { name, origin, pid, readyMs, output(), stop() }; on failure the child is stopped and the error carries
 * the tail of its output.
 */
export async function startServer({
  name,
  command,
  args,
  origin,
  probe,
  stdout = 'pipe',
  input,
  pollMs = 2,
  timeoutMs = 60_000,
}) {
  const started = performance.now();
  const child = spawnChild(command, args, { stdout, input });
  try {
    await waitForHttp(origin + probe.path, { headers: probe.headers, intervalMs: pollMs, timeoutMs, gaveUp: child.hasExited });
  } catch (error) {
    await child.stop();
    const tail = child.output().trim().split('\n').slice(-15).join('\n');
    throw new Error(`${name} did not start: ${error.message}${tail ? `\n${tail}` : ''}`);
  }
  const readyMs = performance.now() - started;
  return { name, origin, pid: child.pid, readyMs, output: child.output, stop: (graceMs) => child.stop(graceMs) };
}
