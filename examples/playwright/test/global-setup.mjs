// Starts what the suite runs against, as a deployment would: the mock as its own process (`cardrail-mock --control`,
// on a free port) and the app's server pointed at it. Their addresses and the control token reach the tests through
// the environment; the teardown stops both.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { startApp } from '../app/server.mjs';

export const APP_API_KEY = 'sk_test_playwright_app_01';

/** Starts `cardrail-mock` and resolves with its API URL once it says it listens (or rejects with what it printed). */
function startMock(token) {
  const require = createRequire(import.meta.url);
  const manifest = require.resolve('@cardrail/mock-server/package.json');
  const bin = join(dirname(manifest), require(manifest).bin['cardrail-mock']);
  const child = spawn(process.execPath, [bin, '--port', '0', '--control', '--no-dashboard'], {
    env: { ...process.env, CARDRAIL_CONTROL_TOKEN: token },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let printed = '';
    const timer = setTimeout(() => fail(new Error(`cardrail-mock did not start within 60 s:\n${printed}`)), 60_000);
    const fail = (error) => {
      clearTimeout(timer);
      child.kill();
      reject(error);
    };
    const read = (chunk) => {
      printed += chunk;
      const url = /listening on (\S+)/.exec(printed)?.[1];
      if (url && printed.includes('Control API:')) {
        clearTimeout(timer);
        child.stdout.off('data', read);
        resolve({ url, child });
      }
    };
    child.stdout.setEncoding('utf8').on('data', read);
    child.stderr.setEncoding('utf8').on('data', (chunk) => {
      printed += chunk;
    });
    child.once('exit', (code) => fail(new Error(`cardrail-mock exited with ${code}:\n${printed}`)));
  });
}

export default async function globalSetup() {
  const token = randomBytes(24).toString('hex');
  const mock = await startMock(token);
  const app = await startApp({ apiKey: APP_API_KEY, baseUrl: mock.url });
  Object.assign(process.env, { CARDRAIL_MOCK_URL: mock.url, CARDRAIL_CONTROL_TOKEN: token, APP_URL: app.url });
  return async () => {
    await app.close();
    const exited = new Promise((resolve) => mock.child.once('exit', resolve));
    mock.child.removeAllListeners('exit');
    mock.child.once('exit', () => undefined);
    mock.child.kill('SIGTERM');
    await exited;
  };
}
