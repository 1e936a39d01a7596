// The Node.js the project develops and tests on: the major .nvmrc names (24). A machine that has it on its PATH uses
// it; on any other (ours have Node 20, end of life), the `node` package of that version is installed from npm into
// .node/ (its own manifest and lockfile, `npm ci`, a few seconds) and run from there: no global install, no version
// manager. `npm test` and `npm run mock` re-run themselves on it (runOnProjectNode); `.ci/run` and contributors put
// its bin/ first on the PATH (`eval "$(node scripts/project-node.mjs)"`), so that npm itself, and every tool npm
// starts, runs on it too (npm is a script: it runs on the first `node` of the PATH).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const prefix = join(root, '.node');
const binDir = join(prefix, 'node_modules', 'node', 'bin');
const binary = join(binDir, process.platform === 'win32' ? 'node.exe' : 'node');

/** The major the project runs on, from .nvmrc. */
export const PROJECT_NODE_MAJOR = Number(readFileSync(join(root, '.nvmrc'), 'utf8').trim());
/** The exact version .node/ installs when the machine's Node is another major. */
const PINNED = JSON.parse(readFileSync(join(prefix, 'package.json'), 'utf8')).dependencies.node;

const majorOf = (version) => Number(version.replace(/^v/, '').split('.')[0]);

/** Whether this process already runs on the project's major. */
export function onProjectNode() {
  return majorOf(process.versions.node) === PROJECT_NODE_MAJOR;
}

/**
 * The folder of the project's `node` binary: this process's own when it is the right major, otherwise .node/'s,
 * installed first if it is missing or another version. Install output goes to stderr.
 */
export function projectNodeBinDir() {
  if (onProjectNode()) return dirname(process.execPath);
  const installed = existsSync(binary)
    ? spawnSync(binary, ['--version'], { encoding: 'utf8' }).stdout?.trim().replace(/^v/, '')
    : undefined;
  if (installed !== PINNED) {
    process.stderr.write(
      `Node ${process.versions.node} is not the project's Node ${PROJECT_NODE_MAJOR} (.nvmrc): installing Node ${PINNED} from npm into .node/ (once)\n`,
    );
    const result = spawnSync('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], {
      cwd: prefix,
      stdio: ['ignore', process.stderr, 'inherit'],
    });
    if (result.status !== 0 || !existsSync(binary)) {
      throw new Error(
        `Installing Node ${PINNED} into ${prefix} failed (npm ci exited ${result.status}). Install Node ${PROJECT_NODE_MAJOR} yourself (nvm use) and run again.`,
      );
    }
  }
  return binDir;
}

/** The environment with the project's Node first on the PATH. */
export function projectNodeEnv(env = process.env) {
  const dir = projectNodeBinDir();
  return { ...env, PATH: [dir, env.PATH ?? ''].join(delimiter) };
}

/**
 * Runs this script again on the project's Node when this process runs on another (the child inherits the terminal
 * and the arguments; its exit code becomes this one's), and returns whether it did: the caller stops when it did.
 */
export async function runOnProjectNode(script, what) {
  if (onProjectNode()) return false;
  const env = projectNodeEnv();
  process.stderr.write(
    `${what}: running on Node ${PINNED} from .node/ (this shell has Node ${process.versions.node}; \`eval "$(node scripts/project-node.mjs)"\` puts it first on your PATH)\n`,
  );
  const child = spawn(binary, [script, ...process.argv.slice(2)], { stdio: 'inherit', env });
  // Ctrl-C reaches the child by itself (same process group); a signal sent to this process alone is passed on.
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  const code = await new Promise((resolve) => child.on('close', (status, signal) => resolve(status ?? (signal ? 1 : 0))));
  process.exitCode = code;
  return true;
}
