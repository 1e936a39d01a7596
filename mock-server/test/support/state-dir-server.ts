import { once } from 'node:events';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { type CliProcess, startCli } from './cli-process.js';
import { FROZEN_AT, newKey } from './keys.js';

/** The built CLI serving a `--state` directory, in a process of its own, its clock frozen. */
const startOnStateDir = (dir: string): Promise<CliProcess> =>
  startCli(['--port', '0', '--state', dir, '--frozen-clock', FROZEN_AT, '--no-dashboard']);

/** A server on a state directory, the key it was called with and the ids of the customers it answered 201. */
interface StateDirServer {
  server: CliProcess;
  key: string;
  ids: string[];
}

/**
 * A server on `dir` with a customer created through its API for each email, then `file` of the directory removed
 * under it: where each case of the files starts. `path` is the file's.
 */
export async function serverWithFileRemoved(
  dir: string,
  file: string,
  emails: readonly string[],
): Promise<StateDirServer & { path: string }> {
  const key = newKey();
  const server = await startOnStateDir(dir);
  const ids: string[] = [];
  for (const email of emails) ids.push((await createCustomer(server, key, email)).id as string);
  const path = join(dir, file);
  rmSync(path);
  return { server, key, ids, path };
}

/** Creates a customer through the API for each email, each answered 201, and adds their ids to `running.ids`. */
export async function addCustomers(running: StateDirServer, emails: readonly string[]): Promise<void> {
  for (const email of emails) {
    const answer = await createCustomer(running.server, running.key, email);
    expect(answer.status).toBe(201);
    running.ids.push(answer.id as string);
  }
}

/** A customer created through the API: its id when answered 201, else the status. */
export async function createCustomer(server: CliProcess, key: string, email: string): Promise<{ status: number; id?: string }> {
  try {
    const response = await fetch(`${server.url}/customers`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ email }),
    });
    const body = (await response.json()) as { id?: string };
    return { status: response.status, id: body.id };
  } catch {
    // The server stopped while the request was on its way: no answer, and certainly no 201.
    return { status: 0 };
  }
}

/** Kills the server outright (as kill -9: nothing of a clean stop runs) and waits until it has exited. */
export async function killOutright(server: CliProcess): Promise<void> {
  server.child.kill('SIGKILL');
  await once(server.child, 'exit');
}

/** Every id answers 200 to GET by id on a new server on `dir`, which stops cleanly afterwards. */
export async function allThereAfterRestart(dir: string, key: string, ids: string[]): Promise<void> {
  const server = await startOnStateDir(dir);
  for (const id of ids) {
    const response = await fetch(`${server.url}/customers/${id}`, { headers: { Authorization: `Bearer ${key}` } });
    expect(response.status, id).toBe(200);
  }
  expect(await server.stop('SIGTERM')).toBe(0);
}
